#!/usr/bin/env node
// The `edfi-api` executable: runs the compiled command line (`npm run build` first).
import '../dist/cli/main.js';
