// Prints the worked example embedded in docs/release-signing.md, computed by the signing code itself.
// Usage: npx tsx scripts/release-signing-example.ts
import { renderSigningExample } from '../packages/protocol/src/release.example.ts';

process.stdout.write(renderSigningExample() + '\n');
