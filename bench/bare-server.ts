/**
 * The baseline: a bare node:http server that answers pre-recorded bodies (and the same headers) per path, with no
 * routing, validation or hooks. Usage: tsx bench/bare-server.ts <port> <recording.json>
 */
import fs from 'node:fs';
import http from 'node:http';

interface Recording {
  [path: string]: { headers: Record<string, string>; body: string };
}

const [port, file] = process.argv.slice(2);
const recording = JSON.parse(fs.readFileSync(file!, 'utf8')) as Recording;
const answers = new Map(
  Object.entries(recording).map(([path, r]) => [path, { headers: r.headers, body: Buffer.from(r.body, 'base64') }]),
);
http
  .createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const answer = answers.get(path);
    if (!answer) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { ...answer.headers, 'content-length': answer.body.length });
    res.end(answer.body);
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
