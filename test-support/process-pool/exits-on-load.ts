/**
 * A job module that ends its worker as the worker loads it (src/process-pool/process-pool.test.ts):
 * a worker that preloads it never becomes ready.
 */
process.stderr.write('this module ends its process\n');
process.exit(4);
