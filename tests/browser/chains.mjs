// Open the chain graph of perf test -w offcpu_chain (perf script report
// offcpu-chain -- --flamegraph) in headless Chromium and check what a
// person sees: above the reader's wait, the writer, then the sleeper, then
// the sleeper's timer interrupt, that end takes nearly all of its width.
//   node chains.mjs chains.html screenshot.png
import { checkFlameGraph } from './page.mjs';

const [html, png] = process.argv.slice(2);

await checkFlameGraph(html, png, async (page, check) => {
	// the frames drawn in the column of the reader's frame: names, widths
	const column = await page.evaluate(() => {
		const box = (g) => g.querySelector('rect').getBoundingClientRect();
		const frames = [...document.querySelectorAll('g.frame')];
		const root = frames.find((g) => g.getAttribute('name').startsWith('reader/'));
		if (!root)
			return null;
		const b = box(root);
		const out = { width: b.width, names: [], ends: 0 };
		for (const h of frames) {
			const c = box(h);
			if (c.bottom > b.top + 1 || c.left < b.left - 1 || c.right > b.right + 1)
				continue;
			const name = h.getAttribute('name');
			out.names.push(name);
			if (/<- \[(hard|soft)irq\]/.test(name))
				out.ends += c.width;
		}
		return out;
	});
	check('the reader drawn', column);
	if (column) {
		const has = (prefix) => column.names.some((n) => n.startsWith(prefix));
		check('the writer above the reader', has('writer/'));
		check('the sleeper above the reader', has('sleeper/'));
		const share = column.ends / column.width;
		console.log(`the timer interrupt ends ${(share * 100).toFixed(1)}% of the reader's width`);
		check('the timer interrupt ends nearly all of it', share >= 0.95);
	}
}, { fullPage: true });
