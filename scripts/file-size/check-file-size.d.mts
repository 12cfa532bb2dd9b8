export declare const MAX_LINES: number;
export declare const ALLOWED: Record<string, string>;
export declare function checkFileSize(options?: { baseDir?: string; roots?: string[]; allowed?: Record<string, string>; maxLines?: number }): string[];
