#!/usr/bin/env node
import '../dist/interfaces/cli/bin.js';
