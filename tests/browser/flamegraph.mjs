// Open the off-CPU flame graph in headless Chromium and check what a person
// sees: the graph is drawn, each demo thread's blocking function is there,
// and its width is proportional to the time the thread says it spent off
// CPU in it.
//   node flamegraph.mjs offcpu.html workload.txt screenshot.png
import { chromium } from 'playwright-core';
import fs from 'node:fs';

const [html, workload, png] = process.argv.slice(2);

// offcpu-demo's output: tid comm offcpu blocked wall run runq func_offcpu
// (nsec)
const offcpu = {};
for (const line of fs.readFileSync(workload, 'utf8').split('\n')) {
	const f = line.trim().split(/\s+/);
	if (f.length === 8 && !line.startsWith('#'))
		offcpu[f[1]] = Number(f[7]);
}

const funcs = {
	sleeper: 'wait_in_nanosleep',
	piper: 'wait_in_pipe_read',
	locker: 'wait_in_mutex_lock',
	syncer: 'wait_in_fsync',
};

const browser = await chromium.launch({
	executablePath: '/usr/bin/chromium',
	args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
	       '--disable-background-networking', '--disable-component-update',
	       '--disable-sync'],
});
let failed = 0;
try {
	const page = await browser.newPage({ viewport: { width: 1400, height: 700 } });
	const requests = [];
	page.on('request', (r) => { if (!r.url().startsWith('file:')) requests.push(r.url()); });
	await page.goto('file://' + html);
	await page.waitForSelector('svg g.frame rect');
	await page.waitForTimeout(1500);	// let the transitions end

	const width = (name) => page.$$eval(`g.frame[name="${name}"] > rect`,
		(rects) => rects.reduce((sum, r) => sum + Number(r.getAttribute('width')), 0));

	const w = {};
	for (const [comm, func] of Object.entries(funcs)) {
		w[comm] = await width(func);
		console.log(`${comm}: ${func} ${w[comm].toFixed(1)} px, ` +
			    `off CPU ${(offcpu[comm] / 1e6).toFixed(1)} ms in it`);
		if (!(w[comm] > 0)) {
			console.log(`FAIL: no ${func} frame`);
			failed++;
		}
	}
	// syncer is left out: its open() runs in glibc without frame pointers,
	// so part of its time is under an unwound stack, not wait_in_fsync
	for (const comm of ['piper', 'locker']) {
		const want = offcpu.sleeper / offcpu[comm];
		const got = w.sleeper / w[comm];
		const ok = Math.abs(got / want - 1) <= 0.03;
		console.log(`sleeper/${comm}: width ratio ${got.toFixed(3)}, ` +
			    `off-CPU time ratio ${want.toFixed(3)} ${ok ? 'ok' : 'FAIL'}`);
		if (!ok)
			failed++;
	}
	if (requests.length) {
		console.log(`FAIL: the page fetched ${requests.join(' ')}`);
		failed++;
	}
	await page.screenshot({ path: png });
	console.log(`screenshot: ${png}`);
} finally {
	await browser.close();
}
process.exit(failed ? 1 : 0);
