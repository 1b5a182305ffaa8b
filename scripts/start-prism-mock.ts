// npm run mock: serves Prism's stateless mock of a contract version on PORT (default 4010).
// Useful to compare the simulator with a mock of the same contract (README, benchmarks):
// stateless, answering every operation from the contract's examples.
import { writeBundledContract } from '../contracts/lib/bundle-files.js';
import { startPrism } from '../contracts/lib/prism.js';

const version = process.env.SIM_CONTRACT ?? 'v1.3.0';
const port = Number(process.env.PORT ?? 4010);
const prism = await startPrism({ mode: 'mock', contractFile: writeBundledContract(version), port });
console.log(`sandbox (Prism mock of contract ${version}) listening on ${prism.url}`);
const shutdown = async () => {
  await prism.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
