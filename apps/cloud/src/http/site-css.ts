/**
 * The one stylesheet of the server-rendered pages (a file, not inline: the pages' policy allows no inline
 * style). Colours keep at least 4.5:1 against their background; layouts are one column up to phone widths
 * (360 px) and focus is always visible.
 */
export const SITE_CSS = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f6f7f9}
main{max-width:46rem;margin:0 auto;padding:1rem}
main.wide{max-width:72rem}
h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0 1rem}
h2{font-size:1.25rem;margin:1.5rem 0 .5rem}
a{color:#0b57d0}
a:hover{color:#083e94}
:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem}
.skip:focus{left:.5rem}
header.site{background:#1b1f24;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
header.site a{color:#fff}
header.site form{margin:0}
.card{background:#fff;border:1px solid #d0d5dc;border-radius:.5rem;padding:1rem;margin:0 0 1rem}
.muted{color:#4a5360}
.small{font-size:.875rem}
fieldset{border:1px solid #d0d5dc;border-radius:.5rem;margin:0 0 1rem;padding:.75rem 1rem;background:#fff}
legend{font-weight:600;padding:0 .25rem}
.field{margin:0 0 1rem}
.field>label,.label{display:block;font-weight:600;margin:0 0 .25rem}
.hint{display:block;color:#4a5360;font-size:.875rem;margin:0 0 .25rem}
input[type=text],input[type=email],input[type=tel],input[type=number],input[type=date],input[type=password],textarea,select{display:block;width:100%;max-width:30rem;font:inherit;padding:.5rem;border:2px solid #5f6b7a;border-radius:.25rem;background:#fff;color:#1b1f24}
input[type=file]{font:inherit;max-width:100%}
textarea{min-height:6rem}
.choice{display:flex;gap:.5rem;align-items:flex-start;margin:.25rem 0}
.choice input{margin-top:.3rem;width:1.25rem;height:1.25rem;flex:none}
.choice label{font-weight:400}
.error{color:#a4161a;font-weight:600;display:block;margin:.25rem 0}
.invalid input,.invalid textarea,.invalid select{border-color:#a4161a}
.error-summary{border:3px solid #a4161a;background:#fff;padding:1rem;border-radius:.5rem;margin:0 0 1rem}
.error-summary h2{margin-top:0;color:#a4161a}
.notice{border-left:6px solid #0b57d0;background:#fff;padding:.75rem 1rem;margin:0 0 1rem}
.warn{border-left-color:#b35c00}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:.6rem 1.2rem;border-radius:.35rem;border:2px solid #0b57d0;background:#0b57d0;color:#fff;cursor:pointer;text-decoration:none;min-height:44px}
button:hover,.button:hover{background:#083e94;border-color:#083e94;color:#fff}
button.secondary{background:#fff;color:#0b57d0}
button.secondary:hover{background:#e8effb;color:#083e94}
button.danger{background:#a4161a;border-color:#a4161a}
button.danger:hover{background:#7d1013;border-color:#7d1013}
header.site button{padding:.3rem .8rem;min-height:0;background:#fff;color:#1b1f24;border-color:#fff}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin:1rem 0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border-bottom:1px solid #d0d5dc;padding:.5rem;text-align:left;vertical-align:top}
th{background:#eef0f3}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.table-wrap{overflow-x:auto}
.total{font-size:1.25rem;font-weight:700}
.status{display:inline-block;padding:.1rem .5rem;border-radius:.25rem;font-weight:600;background:#eef0f3;color:#1b1f24}
.status.pending_approval,.status.awaiting_payment{background:#fff4d6;color:#5c3d00}
.status.approved,.status.pass{background:#dcf2e3;color:#14532d}
.status.rejected,.status.fail{background:#fde2e2;color:#7d1013}
.status.partially_approved{background:#e8effb;color:#083e94}
.thumb{width:90px;height:160px;object-fit:cover;border:1px solid #d0d5dc;background:#eef0f3}
.preview{max-width:180px;height:auto;border:1px solid #d0d5dc}
.qr{width:200px;height:200px;image-rendering:pixelated}
.purchase{border-top:4px solid #0b57d0}
.decide{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
.decide form{margin:0}
.codes{font-family:ui-monospace,Menlo,Consolas,monospace;columns:2}
tr.pass td:last-child{color:#14532d}
tr.fail td:last-child{color:#7d1013}
@media (max-width:30rem){main{padding:.75rem}table{font-size:.875rem}th,td{padding:.4rem .3rem}.status{font-size:.8125rem}dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.5rem}h1{font-size:1.35rem}}
`;
