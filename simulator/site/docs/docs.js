// The API reference page (/docs): Swagger UI renders the contract chosen in the switcher, fetched from this
// server's /contracts/<name>/openapi.json, and its "Try it out" sends requests to the first of the contract's
// servers, which this sandbox serves as its own address (site.routes.ts). The list of contracts comes from
// GET / (JSON), so a contract added there shows here. `?version=` picks one and is kept in the address.
const select = document.getElementById('version');
const status = document.getElementById('status');
const reference = document.getElementById('reference');

const swaggerReady = () =>
  new Promise((resolve) => {
    if (window.SwaggerUIBundle) return resolve(window.SwaggerUIBundle);
    window.addEventListener('load', () => resolve(window.SwaggerUIBundle), { once: true });
  });

function show(name) {
  const url = `/contracts/${encodeURIComponent(name)}/openapi.json`;
  document.getElementById('download-json').href = url;
  document.getElementById('download-yaml').href = url.replace(/\.json$/, '.yaml');
  const postman = document.getElementById('download-postman');
  postman.hidden = name !== 'v1.3.0'; // the collection is made for the current contract only
  const address = new URL(window.location.href);
  address.searchParams.set('version', name);
  window.history.replaceState(null, '', address);
  status.textContent = 'loading…';
  reference.dataset.version = '';
  return swaggerReady().then(
    (SwaggerUIBundle) =>
      new Promise((resolve) => {
        SwaggerUIBundle({
          url,
          domNode: reference,
          // No badge from validator.swagger.io: the page asks nothing of another host.
          validatorUrl: null,
          deepLinking: false,
          displayOperationId: true,
          docExpansion: 'list',
          defaultModelsExpandDepth: 0,
          // The token given in Authorize survives a reload and a switch of version (kept in this browser only).
          persistAuthorization: true,
          // The switcher above stands for Swagger UI's own top bar (which would accept any URL to render).
          layout: 'BaseLayout',
          onComplete: () => {
            status.textContent = '';
            reference.dataset.version = name;
            resolve();
          },
          onFailure: (error) => {
            status.textContent = `could not render ${name}: ${error?.message ?? error}`;
            resolve();
          },
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
