// Open the wall-clock flame graph of perf test -w offcpu_wallclock in
// headless Chromium and check what a person sees: the spinner thread's
// [on-cpu] frame about 40% of its time on and off CPU, its [off-cpu]
// frame about 60% (all of its width but for [runnable], the time it was
// preempted), and each thread as wide as its wall-clock time, relative
// to the other.
//   node wallclock.mjs wallclock.html workload.txt screenshot.png
import { checkFlameGraph } from './page.mjs';
import { readFileSync } from 'fs';

const [html, workload, png] = process.argv.slice(2);
// NAME TID WALL_NS CPU_NS
const wall = {};
for (const line of readFileSync(workload, 'utf8').trim().split('\n')) {
	const [name, , ns] = line.split(' ');
	wall[name] = Number(ns);
}

await checkFlameGraph(html, png, async (page, check) => {
	// the width of the frame of a thread, and of the frames right above it
	const widths = (thread) => page.evaluate((thread) => {
		const box = (g) => g.querySelector('rect').getBoundingClientRect();
		const frames = [...document.querySelectorAll('g.frame')];
		const root = frames.find((g) => g.getAttribute('name').startsWith(thread + ' ('));
		if (!root)
			return null;
		const b = box(root);
		const out = { thread: b.width };
		for (const h of frames) {
			const c = box(h);
			if (Math.abs(c.bottom - b.top) <= 2 && c.left >= b.left - 1 &&
			    c.right <= b.right + 1)
				out[h.getAttribute('name')] = c.width;
		}
		return out;
	}, thread);

	const s = await widths('spinner');
	const b = await widths('burster');
	check('spinner and burster frames drawn', s && b);
	if (s && b) {
		// of its time on and off CPU: on a loaded machine, the time it was
		// preempted ([runnable]) takes a share of its width besides
		const run = s['[runnable]'] || 0, both = s.thread - run;
		const on = s['[on-cpu]'] / both, off = s['[off-cpu]'] / both;
		console.log(`spinner: on-cpu ${(on * 100).toFixed(1)}%, off-cpu ${(off * 100).toFixed(1)}% ` +
			    `of its time on and off CPU; runnable ${(run / s.thread * 100).toFixed(1)}% of its width`);
		check('spinner on-cpu about 40%', Math.abs(on - 0.4) <= 0.05);
		check('spinner off-cpu about 60%', Math.abs(off - 0.6) <= 0.05);
		const ratio = s.thread / b.thread, want = wall.spinner / wall.burster;
		console.log(`spinner/burster width ${ratio.toFixed(3)}, wall-clock ${want.toFixed(3)}`);
		check('threads as wide as their wall-clock time', Math.abs(ratio / want - 1) <= 0.05);
	}
});
