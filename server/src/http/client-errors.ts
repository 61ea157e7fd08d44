import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { toProblem, VigilError } from '../errors.js';
import { PROBLEM_CONTENT_TYPE } from './problem.js';

/**
 * Node's HTTP parser and its request timeout fail a request before Fastify sees it: a malformed request line or
 * URL, `Transfer-Encoding: chunked` together with `Content-Length`, headers over the size limit, a request whose
 * headers or body stop arriving. Each one is answered as a problem like every other error, and the connection is
 * closed, since the parser cannot know where the next request would start.
 */
export function clientErrorProblem(error: NodeJS.ErrnoException): VigilError {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new VigilError('request_timeout', 'The request headers and body did not arrive within the request timeout');
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') return new VigilError('headers_too_large', `The request headers are larger than ${maxHeaderSize} bytes`);
  return new VigilError('malformed_request', `The request could not be parsed (${error.code ?? 'parse error'})`);
}

/** Fastify's `clientErrorHandler`: writes the problem straight to the socket, then closes it. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset peer, or a response already under way (its headers went out), leaves nothing to answer.
  const response = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const problem = clientErrorProblem(error);
  const body = JSON.stringify(toProblem(problem));
  const head = [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ].join('\r\n');
  // Destroyed once written: a client still dripping its body must not keep the connection.
  socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
}
