// Security headers, no-store caching and CORS. A mock is called from other
// origins on purpose, so CORS is open by default and narrowed by CORS_ORIGINS.
import cors from 'cors';
import helmet from 'helmet';
import type { RequestHandler } from 'express';

function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Swagger UI sets inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // Browser frontends on other origins are this server's users.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    xFrameOptions: { action: 'deny' },
    // Served over plain HTTP on loopback: HSTS would only confuse.
    strictTransportSecurity: false,
  });
}

/** The setting the hygiene step reads (CORS_ORIGINS, parsed by process/config.ts). */
export interface HygieneSettings {
  corsOrigins: '*' | readonly string[];
}

export const EXPOSED_HEADERS = ['X-Total-Count', 'Link', 'X-Request-Id'];
export const ALLOWED_HEADERS = ['X-Api-Key', 'Prefer', 'X-Request-Id', 'Content-Type'];

function corsPolicy(config: HygieneSettings): RequestHandler {
  const policy = cors({
    origin: config.corsOrigins === '*' ? '*' : [...config.corsOrigins],
    methods: ['GET'],
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  return (req, res, next) => {
    // Only a real preflight is answered here; any other OPTIONS is a method the path does not allow (405).
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] === undefined) {
      next();
      return;
    }
    policy(req, res, next);
  };
}

/**
 * Security headers, no-store and CORS as one step: every answer of the app
 * gets all three, so one pipeline layer instead of three (each layer costs the
 * router a dispatch on every request).
 */
export function responseHygiene(config: HygieneSettings): RequestHandler {
  const security = securityHeaders();
  const cors = corsPolicy(config);
  return (req, res, next) => {
    security(req, res, (error?: unknown) => {
      if (error) return next(error);
      res.setHeader('Cache-Control', 'no-store');
      cors(req, res, next);
    });
  };
}
