// Security headers, no-store caching and CORS, as openapi.yaml states them on
// every response. A mock is called from other origins on purpose, so CORS is
// open by default and narrowed by CORS_ORIGINS.
import cors from 'cors';
import helmet from 'helmet';
import { API_CSP } from '../errors';
import type { ControlPort, MiddlewareOf } from './request';

type RequestHandler = MiddlewareOf;

function securityHeaders(): RequestHandler {
  // helmet and cors call only setHeader, getHeader, removeHeader, statusCode and end: any PipelineResponse has them.
  return helmet({
    // Written by responseHygiene instead: the one policy of the raw answers (errors.ts), which the docs
    // page replaces with its own where it is served (docs.ts).
    contentSecurityPolicy: false,
    // Browser frontends on other origins are this server's users.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    // Stated by openapi.yaml too, for browsers that predate frame-ancestors.
    xFrameOptions: { action: 'deny' },
    // Served over plain HTTP on loopback: HSTS would only confuse.
    strictTransportSecurity: false,
  }) as unknown as RequestHandler;
}

/** The setting the hygiene step reads (CORS_ORIGINS, parsed by process/config.ts). */
export interface HygieneSettings {
  corsOrigins: '*' | readonly string[];
}

export const EXPOSED_HEADERS = ['X-Total-Count', 'Link', 'X-Request-Id'];
export const ALLOWED_HEADERS = ['X-Api-Key', 'Prefer', 'X-Request-Id', 'Content-Type'];

/**
 * With the control API on, a page's requests may carry its session and
 * scenario headers (X-Mock-Session, X-Mock-Scenario), and a page may call the
 * control paths themselves with their methods (a dev tool switching its tab's
 * scenario).
 */
function corsPolicy(config: HygieneSettings, control: ControlPort | undefined): RequestHandler {
  const options = (methods: readonly string[]) =>
    cors({
      origin: config.corsOrigins === '*' ? '*' : [...config.corsOrigins],
      methods: [...methods],
      allowedHeaders: [...ALLOWED_HEADERS, ...(control?.requestHeaders ?? [])],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    }) as unknown as RequestHandler;
  const policy = options(['GET']);
  const controlPolicy = control ? options(control.methods) : policy;
  return (req, res, next) => {
    // Only a real preflight (openapi.yaml, CORS: OPTIONS with Origin and Access-Control-Request-Method) is
    // answered here. Any other OPTIONS is a method the path does not allow (405), and gets the CORS headers of
    // any request with an Origin: the cors package would take it for a preflight, so it sees it as a GET.
    const preflight = req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
    if (req.method === 'OPTIONS' && !preflight) {
      policy(Object.create(req, { method: { value: 'GET' } }) as typeof req, res, next);
      return;
    }
    (control && req.path.startsWith(control.prefix) ? controlPolicy : policy)(req, res, next);
  };
}

/**
 * Security headers, no-store and CORS as one step: every answer of the app
 * gets all three, so one pipeline layer instead of three (each layer costs the
 * router a dispatch on every request).
 */
export function responseHygiene(config: HygieneSettings, control?: ControlPort): RequestHandler {
  const security = securityHeaders();
  const cors = corsPolicy(config, control);
  return (req, res, next) => {
    security(req, res, (error?: unknown) => {
      if (error) return next(error);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Content-Security-Policy', API_CSP);
      cors(req, res, next);
    });
  };
}
