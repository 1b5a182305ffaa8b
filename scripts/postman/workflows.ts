// The hand-written folders of the Postman collection (issue 29 item 4): the three canonical workflows of
// spec 1, (A) SIMA screening, (B) trade feed, (C) ship audit, as requests that chain the ids each answer gives
// through collection variables, and poll a job or a session until it settles (spec 3.1, 3.2) by asking again
// (postman.setNextRequest) with a pause and a bound. Each folder starts with its own token exchange (spec 5),
// so any one of them runs alone: `newman run postman.json -e postman.environment.json --folder "Workflow A ..."`.
// Uploads read their files from fixtures/ relative to the working directory (newman's --working-dir; the
// repository root).

/** One request of a workflow folder. */
interface Step {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  /** Path with {{variables}}, query string included. */
  path: string;
  /** The integration key (the token exchange) instead of the bearer the collection sends by default. */
  withKey?: true;
  /** A JSON body, as text so that {{variables}} holding JSON can be spliced in. */
  json?: string;
  /** multipart/form-data: `file` read from src, then text fields. */
  form?: { file: string; fields?: Record<string, string> };
  /** The test script, after the status check. */
  test: string[];
  /** The statuses that count as success (the default: 200). */
  statuses?: number[];
}

// How long a folder polls: 240 reads 250 ms apart, a minute at least, bounded so a stuck job fails the run.
const POLL_PAUSE_MS = 250;
const POLL_BOUND = 240;

const statusCheck = (statuses: number[]) => [
  `pm.test('${statuses.join(' or ')}', () => pm.expect(pm.response.code, pm.response.text()).to.be.oneOf([${statuses.join(', ')}]));`,
];

/** spec 5: the key is exchanged for a bearer, which every later request of the folder sends. */
const tokenExchange = (folder: string): Step => ({
  name: `${folder}1 exchange the integration key for a bearer token`,
  method: 'POST',
  path: '/api/auth/token/integration',
  withKey: true,
  test: ["pm.collectionVariables.set('bearerToken', pm.response.json().access_token);"],
});

/** Reads the job in {{jobId}} again until it is COMPLETED or FAILED (spec 3.1), then expects COMPLETED. */
const pollJob = (name: string): Step => ({
  name,
  method: 'GET',
  path: '/api/jobs/{{jobId}}',
  test: pollUntil('job', "['COMPLETED', 'FAILED']", "pm.test('the job COMPLETED', () => pm.expect(polled.status, JSON.stringify(polled)).to.equal('COMPLETED'));"),
});

/** The shared shape of a poll: settled -> reset the count and check; else wait, count and ask again. */
function pollUntil(what: string, settled: string, check: string): string[] {
  return [
    'const polled = pm.response.json();',
    "const polls = Number(pm.collectionVariables.get('polls') || 0) + 1;",
    `if (!${settled}.includes(polled.status) && polls < ${POLL_BOUND}) {`,
    "  pm.collectionVariables.set('polls', polls);",
    `  setTimeout(() => postman.setNextRequest(pm.info.requestName), ${POLL_PAUSE_MS});`,
    '} else {',
    "  pm.collectionVariables.set('polls', 0);",
    `  pm.test('the ${what} settled within ${POLL_BOUND} reads', () => pm.expect(${settled}).to.include(polled.status));`,
    `  ${check}`,
    '}',
  ];
}

const WORKFLOW_A: Step[] = [
  tokenExchange('A'),
  {
    name: 'A2 enqueue a SIMA screening batch of every catalog SKU',
    method: 'POST',
    path: '/api/sima/batch',
    json: JSON.stringify({ skus: null, runPolicy: 'always', screeningAuthority: 'CA' }),
    statuses: [202],
    test: ["pm.collectionVariables.set('jobId', pm.response.json().jobId);"],
  },
  pollJob('A3 poll the screening job until it settles'),
  {
    name: 'A4 read the SIMA summary',
    method: 'GET',
    path: '/api/sima/summary',
    test: ["pm.test('the summary counts SKUs', () => pm.expect(pm.response.json().totalSkus).to.be.above(0));"],
  },
  {
    name: 'A5 read the first results',
    method: 'GET',
    path: '/api/sima/results?limit=10',
    test: [
      'const { outcomes } = pm.response.json();',
      "pm.test('results were screened', () => pm.expect(outcomes).to.not.be.empty);",
      "pm.collectionVariables.set('sku', outcomes[0].sku);",
    ],
  },
  {
    name: 'A6 read the evidence behind the first result',
    method: 'GET',
    path: '/api/sima/results/{{sku}}/evidence',
    test: [],
  },
];

const WORKFLOW_B: Step[] = [
  tokenExchange('B'),
  {
    name: 'B2 upload a catalog feed (origin CN, destination CA)',
    method: 'POST',
    path: '/api/trade/feeds/upload',
    form: { file: 'fixtures/trade/feed-clean.csv', fields: { originCountry: 'CN', defaultDestinationCountry: 'CA' } },
    statuses: [202],
    test: ['const receipt = pm.response.json();', "pm.collectionVariables.set('sessionId', receipt.sessionId);", "pm.collectionVariables.set('jobId', receipt.jobId);"],
  },
  {
    name: 'B3 poll the feed session until normalization settles',
    method: 'GET',
    path: '/api/trade/feeds/{{sessionId}}',
    test: pollUntil('session', "['READY', 'PREVIEW_BLOCKED', 'FAILED', 'APPLIED']", "pm.test('the session is READY', () => pm.expect(polled.status, JSON.stringify(polled)).to.equal('READY'));"),
  },
  {
    name: 'B4 read the issues normalization surfaced',
    method: 'GET',
    path: '/api/trade/feeds/{{sessionId}}/issues?limit=500',
    test: ["pm.test('no blocking issue', () => pm.expect(pm.response.json().issues.filter((i) => i.isBlocking)).to.be.empty);"],
  },
  {
    name: 'B5 start the classify preview',
    method: 'POST',
    path: '/api/trade/feeds/{{sessionId}}/classify-preview',
    json: '{}',
    statuses: [202],
    test: ['const preview = pm.response.json();', "pm.collectionVariables.set('jobId', preview.jobId);", "pm.collectionVariables.set('previewJobId', preview.previewJobId);"],
  },
  pollJob('B6 poll the classify-preview job until it settles'),
  {
    name: 'B7 read the proposals and accept each (or keep the HS code the feed gave)',
    method: 'GET',
    path: '/api/trade/feeds/{{sessionId}}/skus?limit=500',
    test: [
      'const rows = pm.response.json().skus',
      '  .map((s) => ({ sku: s.sku, name: s.productName, hsCode: s.providedHs ?? s.proposal?.hsCode ?? null }))',
      '  .filter((r) => r.hsCode !== null);',
      "pm.test('some SKU has an HS code to apply', () => pm.expect(rows).to.not.be.empty);",
      "pm.collectionVariables.set('reviewRows', JSON.stringify(rows.map((r) => ({ ...r, accepted: true }))));",
      "pm.collectionVariables.set('applyRows', JSON.stringify(rows));",
    ],
  },
  {
    name: 'B8 persist the review',
    method: 'PUT',
    path: '/api/trade/classify/preview/{{previewJobId}}/review',
    json: '{"rows": {{reviewRows}}, "toggles": {"acceptHighConfidence": true}}',
    test: [],
  },
  {
    name: 'B9 apply the reviewed rows to the tenant catalog',
    method: 'POST',
    path: '/api/trade/feeds/{{sessionId}}/apply',
    json: '{"rows": {{applyRows}}, "originCountry": "CN", "screeningAuthority": "CA"}',
    test: ["pm.test('the session is APPLIED', () => pm.expect(pm.response.json().status).to.equal('APPLIED'));"],
  },
];

const CONFIRMATION = '{"source": "carrier billing portal", "referenceId": "FICT-CR-POSTMAN", "confirmedAt": "{{$isoTimestamp}}"}';
const WORKFLOW_C: Step[] = [
  tokenExchange('C'),
  {
    name: 'C2 upload the FedEx carrier agreement',
    method: 'POST',
    path: '/api/carrier/agreements/upload',
    form: { file: 'fixtures/freight/agreement-fedex.csv' },
    statuses: [202],
    test: ["pm.collectionVariables.set('jobId', pm.response.json().jobId);"],
  },
  pollJob('C3 poll the agreement job until it settles'),
  {
    name: 'C4 upload the FedEx invoice file',
    method: 'POST',
    path: '/api/ship/upload',
    form: { file: 'fixtures/freight/shipments-fedex.csv' },
    statuses: [202],
    test: ["pm.collectionVariables.set('jobId', pm.response.json().jobId);"],
  },
  pollJob('C5 poll the audit job until it settles'),
  {
    name: 'C6 list the OPEN findings and pick a disputable FedEx one',
    method: 'GET',
    path: '/api/ship/findings?workflowStatus=OPEN&limit=500',
    test: [
      "const picked = pm.response.json().findings.find((f) => f.carrier === 'FEDEX' && f.actionability === 'disputable' && (f.recoverableAmount ?? 0) > 0);",
      "pm.test('a claimable finding is OPEN', () => pm.expect(picked).to.be.an('object'));",
      "pm.collectionVariables.set('findingId', picked.id);",
      "pm.collectionVariables.set('findingAmount', picked.recoverableAmount);",
    ],
  },
  {
    name: 'C7 dispute the finding',
    method: 'POST',
    path: '/api/ship/findings/{{findingId}}/dispute',
    test: ["pm.test('DISPUTED', () => pm.expect(pm.response.json().workflowStatus).to.equal('DISPUTED'));"],
  },
  {
    name: 'C8 create a claim submission for it',
    method: 'POST',
    path: '/api/ship/claims/submissions',
    json: '{"carrier": "FEDEX", "findingIds": ["{{findingId}}"], "notes": "Postman workflow C"}',
    statuses: [201],
    test: ['const { submission } = pm.response.json();', "pm.test('DRAFT', () => pm.expect(submission.status).to.equal('DRAFT'));", "pm.collectionVariables.set('submissionId', submission.id);"],
  },
  ...(
    [
      ['C9 generate the claim packet', 'generate-packet', undefined, 'READY'],
      ['C10 submit the claim', 'submit', '{"externalReference": "FICT-FDX-POSTMAN"}', 'SUBMITTED'],
      ['C11 record the carrier acknowledgement', 'acknowledge', '{"externalReference": "FICT-FDX-POSTMAN"}', 'ACKNOWLEDGED'],
      ['C12 confirm the credit', 'confirm-credit', `{"confirmation": ${CONFIRMATION}, "amountsByFinding": {"{{findingId}}": {{findingAmount}}}}`, 'CREDIT_CONFIRMED'],
    ] as const
  ).map(([name, action, json, expected]): Step => ({
    name,
    method: 'POST',
    path: `/api/ship/claims/submissions/{{submissionId}}/${action}`,
    ...(json ? { json } : {}),
    test: [`pm.test('${expected}', () => pm.expect(pm.response.json().submission.status).to.equal('${expected}'));`],
  })),
  {
    name: 'C13 submit the finding',
    method: 'POST',
    path: '/api/ship/findings/{{findingId}}/submit',
    test: ["pm.test('SUBMITTED', () => pm.expect(pm.response.json().workflowStatus).to.equal('SUBMITTED'));"],
  },
  {
    name: 'C14 record the finding credit (the billing record, spec 4.5)',
    method: 'POST',
    path: '/api/ship/findings/{{findingId}}/credit',
    json: `{"amount": {{findingAmount}}, "confirmation": ${CONFIRMATION}}`,
    test: ["pm.test('CREDITED', () => pm.expect(pm.response.json().workflowStatus).to.equal('CREDITED'));"],
  },
];

export const WORKFLOW_FOLDERS = [
  { name: 'Workflow A: SIMA screening (spec 1)', description: 'Token exchange, enqueue a screening batch, poll the job until it settles, read summary, results and evidence.', steps: WORKFLOW_A },
  { name: 'Workflow B: trade feed (spec 1)', description: 'Token exchange, upload a feed, poll the session, read issues, classify-preview, poll the job, review, apply.', steps: WORKFLOW_B },
  { name: 'Workflow C: ship audit (spec 1)', description: 'Token exchange, upload agreement and invoices (polling each job), pick a finding, dispute it, create a claim submission, generate its packet, submit, acknowledge, confirm credit, credit the finding.', steps: WORKFLOW_C },
] as const;

/** The folders as Postman collection v2.1 items. */
export function workflowItems() {
  return WORKFLOW_FOLDERS.map((folder) => ({
    name: folder.name,
    description: folder.description,
    item: folder.steps.map((step) => {
      const [pathPart, query = ''] = step.path.split('?');
      const body = step.json
        ? { mode: 'raw', raw: step.json, options: { raw: { language: 'json' } } }
        : step.form
          ? {
              mode: 'formdata',
              formdata: [{ key: 'file', type: 'file', src: step.form.file }, ...Object.entries(step.form.fields ?? {}).map(([key, value]) => ({ key, value, type: 'text' }))],
            }
          : undefined;
      return {
        name: step.name,
        request: {
          method: step.method,
          header: [{ key: 'Accept', value: 'application/json' }, ...(step.json ? [{ key: 'Content-Type', value: 'application/json' }] : [])],
          url: {
            raw: `{{baseUrl}}${step.path}`,
            host: ['{{baseUrl}}'],
            path: pathPart.split('/').filter(Boolean),
            ...(query ? { query: query.split('&').map((pair) => ({ key: pair.split('=')[0], value: pair.split('=')[1] })) } : {}),
          },
          ...(step.withKey ? { auth: { type: 'apikey', apikey: [{ key: 'key', value: 'x-api-key' }, { key: 'value', value: '{{apiKey}}' }, { key: 'in', value: 'header' }] } } : {}),
          ...(body ? { body } : {}),
        },
        event: [{ listen: 'test', script: { type: 'text/javascript', exec: [...statusCheck(step.statuses ?? [200]), ...step.test] } }],
      };
    }),
  }));
}
