// Preload for the child processes of a test (NODE_OPTIONS="--import <this file>", so the
// processes they start get it too): every `new Date()` and `Date.now()` is shifted by
// CW_TEST_CLOCK_SHIFT_MS, so a test can run `serve` at the hour it needs (after the API's
// refresh window, or inside it) whatever the time of day. Timers and durations are untouched.
const shift = Number(process.env.CW_TEST_CLOCK_SHIFT_MS ?? 0);
if (shift !== 0) {
  const RealDate = Date;
  globalThis.Date = class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + shift);
      else super(...args);
    }
    static now() {
      return RealDate.now() + shift;
    }
  };
}
