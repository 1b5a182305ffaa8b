import { startTestTarget } from '../conformance/testing/simulator.js';
const t = await startTestTarget({ label: 'probe-x', env: { SIM_DEFECTS: 'jobs.progress-held-at-zero' } });
try {
  const tok = await (await fetch(`${t.url}/api/auth/token/integration`, { method: 'POST', headers: { 'x-api-key': t.apiKey } })).json();
  const fd = new FormData();
  fd.append('file', new Blob(['carrier,service,rate\nUPS,ground,1.5\n'], { type: 'text/csv' }), 'agreement.csv');
  const up = await (await fetch(`${t.url}/api/carrier/agreements/upload`, { method: 'POST', headers: { authorization: `Bearer ${tok.access_token}` }, body: fd })).json();
  console.log(up);
  await new Promise((r) => setTimeout(r, 3000));
  console.log(await (await fetch(`${t.url}/api/jobs/${up.jobId}`, { headers: { authorization: `Bearer ${tok.access_token}` } })).json());
} finally { await t.close(); }
