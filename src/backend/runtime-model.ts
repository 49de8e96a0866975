import { NaoError } from '../errors/index.js';
import type { ProjectRuntime } from '../test-run/index.js';

/** The runtime's model for `provider:model_id`; one it cannot give (a NaoError, e.g. no key) is a failed result. */
export function runtimeModel(
  runtime: ProjectRuntime,
  modelString: string,
): { success: true; model: ReturnType<ProjectRuntime['model']> } | { success: false; error: string } {
  try {
    return { success: true, model: runtime.model(modelString) };
  } catch (error) {
    if (!(error instanceof NaoError)) throw error;
    return { success: false, error: error.message };
  }
}
