// The parts of two untyped packages this folder uses (openapi-to-postmanv2 and newman ship no types).
declare module 'openapi-to-postmanv2' {
  interface ConversionResult {
    result: boolean;
    reason?: string;
    output: Array<{ type: string; data: unknown }>;
  }
  const Converter: {
    convertV2(input: { type: 'json' | 'string' | 'file'; data: unknown }, options: Record<string, unknown>, callback: (error: Error | null, result: ConversionResult) => void): void;
  };
  export default Converter;
}

declare module 'newman' {
  interface RunSummary {
    run: {
      stats: Record<'requests' | 'assertions' | 'testScripts' | 'items', { total: number; failed: number }>;
      failures: Array<{ error: { name: string; message: string; test?: string }; source?: { name?: string } }>;
      executions: Array<{ item: { name: string }; response?: { code: number }; assertions?: Array<{ assertion: string; error?: { message: string } }> }>;
    };
  }
  export function run(options: Record<string, unknown>, callback: (error: Error | null, summary: RunSummary) => void): unknown;
}
