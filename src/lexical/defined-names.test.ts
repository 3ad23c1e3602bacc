import { describe, expect, it } from 'vitest';
import { definedNames } from './defined-names.js';

describe('definedNames', () => {
  it('reads the API an entry defines from its signature heading and its qualified anchor', () => {
    expect(definedNames({ headingPath: ['os.path', 'os.path.join(path, *paths)'], anchor: 'os.path.join' })).toEqual(['os.path.join']);
    expect(definedNames({ headingPath: ['Built-in Types', 'class dict(**kwargs)', 'items()'], anchor: 'dict.items' })).toEqual(['dict.items', 'items']);
    expect(definedNames({ headingPath: ['datetime', 'classmethod datetime.now(tz=None)'], anchor: 'datetime.datetime.now' })).toEqual(['datetime.datetime.now', 'datetime.now']);
    expect(definedNames({ headingPath: ['fs', 'fs.readFile(path[, options], callback)'], anchor: 'fsreadfilepath-options-callback' })).toEqual(['fs.readFile']);
  });

  it('reads every name of an entry documented under several (its signatures joined by "; ")', () => {
    expect(definedNames({ headingPath: ['operator', 'operator.xor(a, b); operator.__xor__(a, b)'], anchor: 'operator.xor' })).toEqual(['operator.xor', 'operator.__xor__']);
    expect(definedNames({ headingPath: ['re', 're.I; re.IGNORECASE'], anchor: 're.I' })).toEqual(['re.I', 're.IGNORECASE']);
    expect(definedNames({ headingPath: ['Guide', 'Install; then configure'], anchor: 'install' })).toEqual([]);
    expect(definedNames({ headingPath: ['dict', 'keys(); iterkeys()'], anchor: 'dict.keys' })).toEqual(['dict.keys', 'keys', 'iterkeys', 'dict.iterkeys']);
  });

  it("reads rustdoc's item kind before a name (`method.entry`) as a kind, not a namespace", () => {
    expect(definedNames({ headingPath: ['HashMap', 'pub fn entry(&mut self, key: K) -> Entry<K, V>'], anchor: 'method.entry' })).toEqual(['entry']);
    expect(definedNames({ headingPath: ['Range', 'start: Idx'], anchor: 'structfield.start' })).toEqual(['start']);
  });

  it('never splits a signature at a semicolon inside brackets (Rust arrays)', () => {
    expect(definedNames({ headingPath: ['Vec', 'fn from(arr: [T; N]) -> Vec<T>'], anchor: 'method.from' })).toEqual(definedNames({ headingPath: ['Vec', 'fn from(arr: [T, N]) -> Vec<T>'], anchor: 'method.from' }));
    expect(definedNames({ headingPath: ['Vec', 'Vec::from(arr: [T; N])'], anchor: 'vec-from' })).toEqual(['Vec::from']);
  });

  it('finds no API in a prose heading', () => {
    expect(definedNames({ headingPath: ['Built-in Functions'], anchor: 'built-in-functions' })).toEqual([]);
    expect(definedNames({ headingPath: ['Introduction'], anchor: 'introduction' })).toEqual([]);
    expect(definedNames({ headingPath: ['datetime', 'date Objects'], anchor: 'date-objects' })).toEqual([]);
    expect(definedNames({ headingPath: ['Guide', 'Examples of Usage: date'], anchor: 'examples-of-usage-date' })).toEqual([]);
  });

  it('reads a heading of one capitalised word as a title even when its id repeats it, and a declared name as a name', () => {
    expect(definedNames({ headingPath: ['Terms Used to Describe Directives', 'Syntax'], anchor: 'Syntax' })).toEqual([]);
    expect(definedNames({ headingPath: ['json', 'type Decoder'], anchor: 'Decoder' })).toEqual(['Decoder']);
    expect(definedNames({ headingPath: ['Constants', 'NotImplemented'], anchor: 'NotImplemented' })).toEqual(['NotImplemented']);
    expect(definedNames({ headingPath: ['Constants', 'NULL'], anchor: 'NULL' })).toEqual(['NULL']);
  });
});
