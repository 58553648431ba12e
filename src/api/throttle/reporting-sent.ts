/**
 * The moment a request actually leaves, for `Throttle.runRequest`: a dispatcher for one
 * request that calls `sent` once undici has written it to its socket (the connection opened
 * first when needed). undici tells its handler so through `onRequestSent`, which its types do
 * not declare: test/integration/api-throttle-loaded.test.ts checks that it still comes
 * before the reply (without it, `runRequest` takes the reply's end as the send: safe, slow).
 */
import { Dispatcher } from 'undici';

type SentHandler = Dispatcher.DispatchHandler & { onRequestSent?: () => void };

/** `dispatcher`, calling `sent` right after the request is written. For one request. */
export function reportingSent(dispatcher: Dispatcher, sent: () => void): Dispatcher {
  return new ReportingSent(dispatcher, sent);
}

class ReportingSent extends Dispatcher {
  constructor(
    private readonly inner: Dispatcher,
    private readonly sent: () => void,
  ) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: SentHandler): boolean {
    const own = handler.onRequestSent?.bind(handler);
    handler.onRequestSent = () => {
      this.sent();
      own?.();
    };
    return this.inner.dispatch(options, handler);
  }
}
