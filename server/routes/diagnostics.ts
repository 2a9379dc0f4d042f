// Tag Diagnostics: public operations, exact as the service description gives them.
import { Router } from 'express';
import { ApiError, TEST_EXCEPTION_MESSAGE } from '../errors';

export function diagnosticsRoutes(): Router {
  const router = Router({ caseSensitive: true, strict: true });

  // operationId: ping
  router.get('/api/v1/Diagnostics/Ping', (_req, res) => {
    res.json('Pong');
  });

  // operationId: exception — a real throw, so the one error handler is what answers.
  router.get('/api/v1/Diagnostics/Exception', () => {
    throw new ApiError('TEST_EXCEPTION', TEST_EXCEPTION_MESSAGE);
  });

  return router;
}
