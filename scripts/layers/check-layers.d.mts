export declare function checkLayers(options?: { baseDir?: string; layers?: Record<string, string[]> }): Promise<string[]>;
