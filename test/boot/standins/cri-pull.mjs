// `crictl pull IMAGE` for the boot test (no crictl binary here: Debian does not package cri-tools): one CRI call,
// runtime.v1.ImageService/PullImage, over gRPC (HTTP/2) to the unix socket that /etc/crictl.yaml's
// runtime-endpoint names, as crictl finds it, with no credentials in the request, so containerd's CRI plugin
// resolves the image as it does for the kubelet: its registry config_path (hosts.toml) and its registry auth config.
// Success: prints the image reference containerd returns (the image ID, sha256:<config digest>), exit 0.
// Failure: prints "grpc-status N: MESSAGE" on stderr, exit 1.
import { readFileSync } from 'node:fs';
import { connect } from 'node:http2';
import { connect as connectSocket } from 'node:net';

const image = process.argv[2];
const endpoint = /^runtime-endpoint:\s*unix:\/\/(\/\S+)\s*$/m.exec(readFileSync('/etc/crictl.yaml', 'utf8'));
if (!endpoint) {
  process.stderr.write('cri-pull: /etc/crictl.yaml names no unix:// runtime-endpoint\n');
  process.exit(1);
}
const socket = endpoint[1];

// Protocol buffers, just what this call needs: length-delimited fields (wire type 2).
function varint(n) {
  const out = [];
  for (; n > 0x7f; n >>>= 7) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return Buffer.from(out);
}
const field = (number, bytes) => Buffer.concat([varint((number << 3) | 2), varint(bytes.length), bytes]);
function readVarint(bytes, i) {
  let n = 0;
  let shift = 0;
  let b;
  do {
    b = bytes[i++];
    n += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [n, i];
}
function readField(message, number) {
  for (let i = 0; i < message.length;) {
    const [key, afterKey] = readVarint(message, i);
    if (key % 8 !== 2) throw new Error(`unexpected wire type ${key % 8}`);
    const [length, start] = readVarint(message, afterKey);
    if (Math.floor(key / 8) === number) return message.subarray(start, start + length);
    i = start + length;
  }
  return undefined;
}

// PullImageRequest{image: ImageSpec{image}}; gRPC frame: uncompressed flag, 4-byte length, message.
const request = field(1, field(1, Buffer.from(image, 'utf8')));
const frame = Buffer.concat([Buffer.from([0]), Buffer.alloc(4), request]);
frame.writeUInt32BE(request.length, 1);

const client = connect('http://localhost', { createConnection: () => connectSocket(socket) });
const call = client.request({
  ':method': 'POST',
  ':path': '/runtime.v1.ImageService/PullImage',
  'content-type': 'application/grpc',
  te: 'trailers',
});
let status;
let message = '';
const chunks = [];
const trailer = (headers) => {
  if (headers['grpc-status'] !== undefined) {
    status = Number(headers['grpc-status']);
    message = decodeURIComponent(String(headers['grpc-message'] ?? ''));
  }
};
call.on('response', trailer);
call.on('trailers', trailer);
call.on('data', (c) => chunks.push(c));
call.on('end', () => {
  client.close();
  const body = Buffer.concat(chunks);
  if (status === 0 && body.length >= 5) {
    process.stdout.write(`${readField(body.subarray(5, 5 + body.readUInt32BE(1)), 1)?.toString('utf8') ?? ''}\n`);
    process.exit(0);
  }
  process.stderr.write(`grpc-status ${status}: ${message}\n`);
  process.exit(1);
});
call.on('error', (e) => {
  process.stderr.write(`cri-pull: ${e.message}\n`);
  process.exit(1);
});
call.end(frame);
