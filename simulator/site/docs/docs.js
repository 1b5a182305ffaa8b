// The API reference page (/docs): Redoc renders the contract chosen in the switcher, fetched from this
// server's /contracts/<name>/openapi.json. The list of contracts comes from GET / (JSON), so a contract
// added there shows here. `?version=` picks one and is kept in the address for links.
const select = document.getElementById('version');
const status = document.getElementById('status');
const reference = document.getElementById('reference');

const redocReady = () =>
  new Promise((resolve) => {
    if (window.Redoc) return resolve(window.Redoc);
    window.addEventListener('load', () => resolve(window.Redoc), { once: true });
  });

function show(name) {
  const url = `/contracts/${encodeURIComponent(name)}/openapi.json`;
  document.getElementById('download-json').href = url;
  document.getElementById('download-yaml').href = url.replace(/\.json$/, '.yaml');
  const address = new URL(window.location.href);
  address.searchParams.set('version', name);
  window.history.replaceState(null, '', address);
  status.textContent = 'loading…';
  reference.dataset.version = '';
  return redocReady().then(
    (Redoc) =>
      new Promise((resolve) => {
        Redoc.init(url, { expandResponses: '200,201,202', jsonSampleExpandLevel: 2, scrollYOffset: 'header.bar' }, reference, (error) => {
          status.textContent = error ? `could not render ${name}: ${error.message ?? error}` : '';
          reference.dataset.version = error ? '' : name;
          resolve();
        });
      }),
  );
}

const index = await fetch('/', { headers: { accept: 'application/json' } }).then((res) => res.json());
for (const contract of index.contracts) {
  const option = document.createElement('option');
  option.value = contract.name;
  option.textContent = contract.name === 'sandbox-control' ? 'sandbox-control (control API)' : contract.name;
  select.append(option);
}
const wanted = new URLSearchParams(window.location.search).get('version');
select.value = index.contracts.some((c) => c.name === wanted) ? wanted : index.contracts[0].name;
select.addEventListener('change', () => show(select.value));
await show(select.value);
