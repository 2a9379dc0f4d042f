// Tag Diagnostics: public operations, exact as the service description gives them.
import type { OperationId } from '../../../contract/operations';
import { ApiError, TEST_EXCEPTION_MESSAGE } from '../../errors';
import type { OperationHandler } from '../request';

export function diagnosticsHandlers(): Record<Extract<OperationId, 'ping' | 'exception'>, OperationHandler> {
  return {
    ping: (_req, res) => {
      res.json('Pong');
    },
    // A real throw, so the one error handler is what answers.
    exception: () => {
      throw new ApiError('TEST_EXCEPTION', TEST_EXCEPTION_MESSAGE);
    },
  };
}
