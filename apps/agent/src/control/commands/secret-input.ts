import { createInterface } from 'node:readline';

/**
 * Reads a secret line: on a terminal, a prompt on stderr with the typed characters not echoed; from a
 * pipe, its first line (`echo 123456 | vend-agent service …` in a script). Never from argv, where any
 * user on the cabinet would see it in `ps`.
 */
export function readSecretLine(prompt: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Promise<string> {
  return new Promise((resolve) => {
    const tty = Boolean(input.isTTY);
    if (tty) output.write(prompt);
    const muted = { write: () => true } as unknown as NodeJS.WritableStream;
    const rl = createInterface({ input, output: tty ? muted : undefined, terminal: tty });
    let done = false;
    const finish = (line: string): void => {
      if (done) return;
      done = true;
      rl.close();
      if (tty) output.write('\n');
      resolve(line.trim());
    };
    rl.once('line', finish);
    rl.once('close', () => finish(''));
  });
}
