// Prints the worked example embedded in docs/release-signing.md, computed by the signing code itself.
// Usage: npx tsx scripts/release-signing-example.ts
import { renderMultiArchExample, renderSigningExample } from '@vend/protocol/examples/release-signing';

process.stdout.write(renderSigningExample() + '\n\n' + renderMultiArchExample() + '\n');
