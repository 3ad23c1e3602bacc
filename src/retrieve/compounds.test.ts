import { describe, expect, it } from 'vitest';
import { joinedPairs } from './compounds.js';

describe('joinedPairs', () => {
  it('writes two neighbouring words as one, the way docs name a thing: "config file" → configfile', () => {
    expect(joinedPairs('which config file does it read')).toEqual(['configfile']);
    expect(joinedPairs('plot every 10th point of a data file')).toEqual(['datafile']);
    expect(joinedPairs('when was the time-stamp written')).toEqual(['timestamp', 'stampwritten']);
  });

  it('never joins across a stop-word, a quantity, a word of one or two letters, digits or punctuation', () => {
    expect(joinedPairs('the file of the data')).toEqual([]);
    expect(joinedPairs('find all files with extension')).toEqual([]);
    expect(joinedPairs('run python -m pytest')).toEqual(['runpython']);
    expect(joinedPairs('route v2 api')).toEqual([]);
    expect(joinedPairs('read the file, name it')).toEqual([]);
    expect(joinedPairs('open the file — name it')).toEqual([]);
    expect(joinedPairs('set file = name')).toEqual(['setfile']);
    expect(joinedPairs('user & group')).toEqual([]);
  });

  it("never joins a word with the asker's quoted values, or a word the question already has", () => {
    expect(joinedPairs('print letter of string `s` twice')).toEqual(['printletter']);
    expect(joinedPairs('echo "Hello World" in a shell')).toEqual([]);
    expect(joinedPairs('datafile or data file')).toEqual([]);
  });
});
