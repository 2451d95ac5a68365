#!/usr/bin/env node
import '../dist/js/bin.js';
