/**
 * The Thrift runtime, the TCLIService definitions and Apache Arrow exactly as the Databricks
 * driver ships and uses them, resolved from the driver's own folder: the fake speaks the
 * protocol with the same generated code the client decodes it with.
 */
import { createRequire } from 'node:module';

const fromDriver = createRequire(createRequire(import.meta.url).resolve('@databricks/sql'));

// biome-ignore lint/suspicious/noExplicitAny: untyped CommonJS modules of the driver.
type Untyped = any;

export const thrift: Untyped = fromDriver('thrift');
export const TCLIService: Untyped = fromDriver('../thrift/TCLIService');
export const ttypes: Untyped = fromDriver('../thrift/TCLIService_types');
export const Int64: Untyped = fromDriver('node-int64');
export const arrow: Untyped = fromDriver('apache-arrow');
