/** One data directory for every command: flag > CW_DATA_DIR > the config file's dataDir > ./data. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIG_FILE_KEYS } from '../../src/cli/data-dir-options.js';
import { readerDataDir, writableDataDir } from '../../src/config/command-data-dir.js';
import { configFileSchema } from '../../src/config/config-file-schema.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('the data directory of every command', () => {
  const dir = tempDir('cw-config-data-dir-');
  const file = join(dir, 'cw.json');
  writeFileSync(file, JSON.stringify({ dataDir: join(dir, 'from-file') }));

  it('follows flag > environment > config file > default, the file named by --config or CW_CONFIG', () => {
    for (const choose of [readerDataDir, writableDataDir]) {
      expect(choose({ dataDir: 'flag', config: file }, { CW_DATA_DIR: 'env' })).toBe('flag');
      expect(choose({ config: file }, { CW_DATA_DIR: 'env' })).toBe('env');
      expect(choose({ config: file }, {})).toBe(join(dir, 'from-file'));
      expect(choose({}, { CW_CONFIG: file })).toBe(join(dir, 'from-file'));
      expect(() => choose({ config: join(dir, 'none.json') }, {})).toThrow(/none\.json: cannot read it/);
      expect(choose({}, {})).toBe('./data');
    }
  });

  it('--config wins over CW_CONFIG, and a bad file is an error whichever command reads it', () => {
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ dataDir: join(dir, 'other') }));
    expect(readerDataDir({ config: other }, { CW_CONFIG: file })).toBe(join(dir, 'other'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ dataDri: 'typo' }));
    expect(() => readerDataDir({ config: bad }, {})).toThrow(/bad\.json.*dataDri/);
    expect(() => writableDataDir({}, { CW_CONFIG: bad })).toThrow(/bad\.json.*dataDri/);
  });

  it("--help lists every key of the config file's schema", () => {
    expect([...CONFIG_FILE_KEYS].sort()).toEqual(Object.keys(configFileSchema.shape).sort());
  });
});
