// Open the off-CPU flame graph in headless Chromium and check what a person
// sees: the graph is drawn, each demo thread's blocking function is there,
// and its width is proportional to the time the thread says it spent off
// CPU in it.
//   node flamegraph.mjs offcpu.html workload.txt screenshot.png
import { checkFlameGraph } from './page.mjs';
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

// the page must not fetch anything from the network
const requests = [];
const before = (page) => page.on('request', (r) => {
	if (!r.url().startsWith('file:'))
		requests.push(r.url());
});

await checkFlameGraph(html, png, async (page, check) => {
	const width = (name) => page.$$eval(`g.frame[name="${name}"] > rect`,
		(rects) => rects.reduce((sum, r) => sum + Number(r.getAttribute('width')), 0));

	const w = {};
	for (const [comm, func] of Object.entries(funcs)) {
		w[comm] = await width(func);
		console.log(`${comm}: ${func} ${w[comm].toFixed(1)} px, ` +
			    `off CPU ${(offcpu[comm] / 1e6).toFixed(1)} ms in it`);
		check(`${func} frame drawn`, w[comm] > 0);
	}
	// syncer is left out: its open() runs in glibc without frame pointers,
	// so part of its time is under an unwound stack, not wait_in_fsync
	for (const comm of ['piper', 'locker']) {
		const want = offcpu.sleeper / offcpu[comm];
		const got = w.sleeper / w[comm];
		check(`sleeper/${comm}: width ratio ${got.toFixed(3)}, ` +
		      `off-CPU time ratio ${want.toFixed(3)}`, Math.abs(got / want - 1) <= 0.03);
	}
	check(`nothing fetched from the network (${requests.join(' ')})`, !requests.length);
}, { height: 700, before });
