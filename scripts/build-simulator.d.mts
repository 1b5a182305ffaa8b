// Types of build-simulator.mjs (plain JavaScript so that `npm start` needs no TypeScript loader).
export declare const SIMULATOR_BUNDLE: string;
export declare function simulatorBundleIsStale(): boolean;
export declare function buildSimulator(options?: { force?: boolean }): Promise<string>;
export declare const NODE_BUNDLE: { bundle: true; platform: 'node'; format: 'esm'; target: 'node20'; packages: 'external' };
