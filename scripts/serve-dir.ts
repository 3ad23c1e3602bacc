// Serves a folder on 127.0.0.1 for crawling: npm run serve:dir -- <folder> [port]
import { resolve } from 'node:path';
import { startStaticServer } from '../src/testing/static-server.js';

const [folder, port] = process.argv.slice(2);
if (folder === undefined) {
  console.error('usage: npm run serve:dir -- <folder> [port]');
  process.exit(2);
}
const server = await startStaticServer(resolve(folder), port === undefined ? {} : { port: Number(port) });
console.log(`serving ${resolve(folder)} at ${server.url} (Ctrl-C to stop)`);
