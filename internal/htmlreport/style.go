package htmlreport

// css is the page's whole style. System fonts only (nothing to fetch);
// tables scroll sideways inside their own box so that a phone never
// scrolls the page, and fit a laptop's column without: headings wrap, and
// a mean's 95% half-width stands under it rather than beside it; figures
// scale to the column; print drops the navigation, shows the whole
// scenario and keeps tables and figures whole.
const css = `:root { color-scheme: light; --fg: #1b1b1b; --muted: #5a5a5a; --rule: #d8d8d8; --band: #f5f5f3; --accent: #0b5cad;
  --pass: #1a7f37; --fail: #b42318; --warn: #8a5a00; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; color: var(--fg); background: #fff; line-height: 1.5;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", "DejaVu Sans", sans-serif; }
main, nav, footer { max-width: 72rem; margin: 0 auto; padding: 0 1rem; }
h1 { font-size: 1.7rem; line-height: 1.25; margin: 1.5rem 0 .75rem; }
h2 { font-size: 1.35rem; margin: 2.25rem 0 .5rem; padding-top: .5rem; border-top: 2px solid var(--rule); }
h3 { font-size: 1.1rem; margin: 1.5rem 0 .4rem; }
h4, h5, h6 { font-size: 1rem; margin: 1.2rem 0 .3rem; }
p { margin: .5rem 0; max-width: 48rem; }
a { color: var(--accent); }
code, pre, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace; font-size: .9em; }
nav { margin-top: 1rem; }
nav ul { list-style: none; padding: .5rem .75rem; margin: 0; background: var(--band); border-radius: 6px; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
nav li.l1 { font-weight: 600; }
dl.prov { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .5rem 0 1rem; }
dl.prov dt { color: var(--muted); }
dl.prov dd { margin: 0; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; margin: .5rem 0 1rem; border: 1px solid var(--rule); border-radius: 6px; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
th, td { padding: .3rem .6rem; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
thead th { background: var(--band); position: sticky; top: 0; }
table.data td { white-space: nowrap; }
th.num, td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
th { white-space: normal; overflow-wrap: break-word; min-width: 4.5rem; }
table.data .ci { display: block; font-size: .85em; }
tbody tr:nth-child(even) { background: #fafafa; }
tr.cell td { border-top: 2px solid var(--rule); }
tr.unstable td { color: var(--warn); }
.ci { color: var(--muted); }
.flag { display: inline-block; padding: 0 .4rem; border-radius: 4px; background: #fff1d6; color: var(--warn); font-size: .8rem; font-weight: 600; }
td.verdict { font-weight: 600; }
td.pass { color: var(--pass); } td.fail { color: var(--fail); } td.inconclusive, td.skipped, td.not-run { color: var(--warn); }
figure { margin: 1rem 0 1.75rem; max-width: 56rem; }
figure svg { display: block; width: 100%; height: auto; }
figcaption { font-size: .9rem; color: var(--muted); margin-top: .25rem; }
figcaption strong { color: var(--fg); }
pre { background: var(--band); padding: .75rem; border-radius: 6px; overflow: auto; }
pre.scenario { max-height: 24rem; }
footer { color: var(--muted); font-size: .85rem; margin: 3rem auto 2rem; border-top: 1px solid var(--rule); padding-top: .75rem; }
@media (max-width: 40rem) {
  body { font-size: 15px; }
  h1 { font-size: 1.4rem; }
  dl.prov { grid-template-columns: 1fr; }
  dl.prov dd { margin-bottom: .3rem; }
}
@media print {
  @page { margin: 15mm; }
  body { font-size: 10pt; }
  nav { display: none; }
  main, footer { max-width: none; padding: 0; }
  a { color: inherit; text-decoration: none; }
  h2 { break-before: auto; break-after: avoid; }
  h3, h4 { break-after: avoid; }
  .scroll { overflow: visible; border: none; }
  table { width: 100%; min-width: 0; font-size: 8pt; }
  thead { display: table-header-group; }
  tr, figure { break-inside: avoid; }
  pre.scenario { max-height: none; overflow: visible; white-space: pre-wrap; }
  tbody tr:nth-child(even) { background: none; }
}
`
