import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/**
 * Text answers compressed when the client accepts it (gzip, or brotli where asked: compression ≥ 1.8): the 2.6 MB
 * OpenAPI document and the reference's script travel as a fraction of that (issue 30). Not compressed: media and
 * other bodies that are already compressed (the library's own `compressible` check on the Content-Type), small
 * answers (under 1 KB), and the cabinet gateway's legs: the held long poll, whose answer must leave the moment it is
 * written, and the rest, small JSON to agents that ask for no encoding — answered as the lean hot legs answer them
 * (those never reach this middleware; their full-stack spelling does, and must answer alike, without a Vary).
 */
export function compressText(): RequestHandler {
  return compression({
    threshold: 1024,
    filter: (req: Request, res: Response) => !CABINET_LEGS.test(req.path) && compression.filter(req, res),
  });
}

/** The cabinet gateway (`/cabinet/…`, the long poll among them). */
const CABINET_LEGS = /^\/cabinet\//i;
