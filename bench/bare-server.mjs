/**
 * The baseline: a bare node:http server, run by plain `node` (no loader), answering pre-recorded responses: the same
 * bytes and headers the service sent for the same request, in each coding. Everything is prepared before it listens
 * (each response's header list, content length included, and its body), and a request is answered by one map look-up
 * on its exact target and one test of Accept-Encoding: no routing, parsing, hooks or per-request copies. This is the
 * physical limit a Node server sending those bytes can reach.
 *
 * Usage: node [V8 flags] bench/bare-server.mjs <port> <recording.json>; bench/http.ts starts it with the service's
 * runtime settings (the start command's environment and node flags, the flags the service sets itself).
 * The recording: { answers: { [key]: { [coding]: { headers, body (base64) } } }, targets: { [request target]: key } },
 * coding being "identity" or "br" (sent when the request's Accept-Encoding names br).
 */
import fs from 'node:fs';
import http from 'node:http';

const [port, file] = process.argv.slice(2);
const recording = JSON.parse(fs.readFileSync(file, 'utf8'));

const prepare = ({ headers, body }) => {
  const bytes = Buffer.from(body, 'base64');
  return { headers: [...Object.entries(headers).flat(), 'content-length', String(bytes.length)], body: bytes };
};
const answers = new Map();
for (const [key, codings] of Object.entries(recording.answers)) {
  answers.set(key, { identity: prepare(codings.identity), br: prepare(codings.br ?? codings.identity) });
}
const targets = new Map(Object.entries(recording.targets).map(([target, key]) => [target, answers.get(key)]));

http
  .createServer((req, res) => {
    const answer = targets.get(req.url);
    if (answer === undefined) {
      res.writeHead(404).end();
      return;
    }
    const accept = req.headers['accept-encoding'];
    const { headers, body } = accept !== undefined && accept.includes('br') ? answer.br : answer.identity;
    res.writeHead(200, headers);
    res.end(body);
  })
  .listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
