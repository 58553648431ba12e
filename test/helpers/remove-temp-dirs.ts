/** Vitest setup file (every project): each test file's tempDir folders go after its last test. */
import { afterAll } from 'vitest';
import { removeTempDirs } from './temp-dir.js';

afterAll(removeTempDirs);
