/** Entry point of the `nao` command; returns the process exit code. */
export async function main(_argv: string[]): Promise<number> {
  return 0;
}
