// Open the off-wake flame graph in headless Chromium and check what a person
// sees: each demo thread's blocking function, a "--" frame above it, then
// the waker's frames: the pipe writer's anon_pipe_write, the mutex
// unlocker's futex_wake, the sleeper's timer interrupt.
//   node offwake.mjs offwake.html screenshot.png
import { checkFlameGraph } from './page.mjs';

const [html, png] = process.argv.slice(2);

await checkFlameGraph(html, png, async (page, check) => {
	// the names of the frames drawn above a frame named 'name' (the graph
	// grows upwards: a frame's children are above it, within its width)
	const above = (name) => page.evaluate((name) => {
		const box = (g) => g.querySelector('rect').getBoundingClientRect();
		const frames = [...document.querySelectorAll('g.frame')];
		const out = new Set();
		for (const g of frames) {
			if (g.getAttribute('name') !== name)
				continue;
			const b = box(g);
			for (const h of frames) {
				const c = box(h);
				if (c.bottom <= b.top + 1 && c.left >= b.left - 1 &&
				    c.right <= b.right + 1)
					out.add(h.getAttribute('name'));
			}
		}
		return [...out];
	}, name);

	const want = {
		wait_in_pipe_read: ['--', 'anon_pipe_write', 'offcpu-demo'],
		wait_in_mutex_lock: ['--', 'futex_wake', 'offcpu-demo'],
		wait_in_nanosleep: ['--', 'hrtimer_wakeup', '[hardirq]'],
	};
	for (const [func, names] of Object.entries(want)) {
		const got = await above(func);
		for (const n of names) {
			// a task waker's frame is its comm and tid: 'offcpu-demo (1234)'
			const ok = got.some((g) => g === n || g.startsWith(n + ' ('));
			check(`${func}: ${n} above it`, ok);
		}
	}
});
