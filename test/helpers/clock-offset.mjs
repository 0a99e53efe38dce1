// Preloaded into a child mnemo (`NODE_OPTIONS=--import …`): its wall clock runs MNEMO_TEST_CLOCK_OFFSET_MS
// ahead, as a process started that much later would see it (leases and batch waits run out by this clock).
import process from 'node:process';

const offset = Number(process.env.MNEMO_TEST_CLOCK_OFFSET_MS ?? '0');
const realNow = Date.now.bind(Date);
Date.now = () => realNow() + offset;
