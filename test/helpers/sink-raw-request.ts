import { request } from 'node:http';

/**
 * A POST with node:http, for what fetch cannot do: announce a Content-Length and send nothing,
 * or stream a chunked body piece by piece. Resolves with the status as soon as the response
 * head arrives (the sink may answer before the body is complete), ignoring later socket errors.
 */
export function rawPost(
  url: string,
  headers: Record<string, string | number>,
  chunks: { readonly count: number; readonly size: number } | 'none',
): Promise<{ status: number; sentBytes: number }> {
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const req = request(url, { method: 'POST', headers }, (res) => {
      answered = true;
      res.resume();
      resolve({ status: res.statusCode ?? 0, sentBytes });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (chunks === 'none') {
      req.flushHeaders();
      return;
    }
    const chunk = Buffer.alloc(chunks.size, 0x20);
    let i = 0;
    const writeNext = (): void => {
      if (answered || req.destroyed) return;
      if (i++ >= chunks.count) {
        req.end();
        return;
      }
      sentBytes += chunk.length;
      req.write(chunk, () => setTimeout(writeNext, 1));
    };
    writeNext();
  });
}
