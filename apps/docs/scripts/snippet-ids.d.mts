export function snippetMeta(info: string): { run: boolean; noRun: boolean } | undefined;
export function snippetId(page: string, index: number): string;
