/** Types for system.js (plain CommonJS). */
export declare function tail(text: string, n?: number): string;
export declare function run(
  cmd: string,
  args: readonly string[],
  options?: object,
): Promise<{ code: number; output: string }>;
export declare function runChecked(cmd: string, args: readonly string[], options?: object): Promise<string>;
export declare function hasCommand(cmd: string): boolean;
export declare function aptInstall(packages: readonly string[], log?: (message: string) => void): Promise<void>;
export declare function tcpOpen(host: string, port: number, timeoutMs?: number): Promise<boolean>;
export declare function pidAlive(pid: number): boolean;
export declare function sleep(ms: number): Promise<void>;
export declare function exists(file: string): boolean;
