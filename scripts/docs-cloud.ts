import fs from 'node:fs';
import { CLOUD_README, generatedBlocks, withBlocks } from './cloud-map.ts';

/** Writes the cloud's generated map (domain layers, table owners) into apps/cloud/README.md. */
fs.writeFileSync(CLOUD_README, withBlocks(fs.readFileSync(CLOUD_README, 'utf8'), generatedBlocks()));
process.stdout.write(`${CLOUD_README}: generated blocks written\n`);
