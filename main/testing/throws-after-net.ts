/** A process with the last-resort net that throws outside any handler (main/fatal-net.test.ts). */
import { installFatalNet } from '../fatal-net.ts';

installFatalNet({ scope: 'cockpit.test' });
setTimeout(() => {
  throw new Error('thrown in a timer, token=s3cret');
}, 0);
