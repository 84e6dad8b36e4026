/**
 * withTokenCache(): an HTTP client that keeps the token cache current from what
 * passes through it (every refresh answer, every rotated x-access-token), so a
 * run never holds a token the cache does not know.
 */
import type { HttpClientLike, HttpRequest, HttpResponse, TargetProfile } from '../contracts.js';
import { trackRefresh } from './refresh-chain.js';
import type { TokenCache } from './token-cache.js';

export function withTokenCache(http: HttpClientLike, cache: TokenCache, profile: Pick<TargetProfile, 'authUrl' | 'baseUrl'>): HttpClientLike {
  const tokenEndpoint = profile.authUrl.replace(/\/+$/, '') + '/access_token';
  const observed = async (req: HttpRequest): Promise<HttpResponse> => {
    const res = await http.request(req);
    await cache.observeExchange(req, res, profile);
    return res;
  };
  // Token requests are refreshes in flight: a catchable stop waits for their answer to be stored.
  const request = (req: HttpRequest): Promise<HttpResponse> => (req.url.startsWith(tokenEndpoint) ? trackRefresh(() => observed(req)) : observed(req));
  return {
    request,
    api: async (method, path, opts) => {
      const res = await http.api(method, path, opts);
      await cache.observeApiResponse(res);
      return res;
    },
    exchanges: () => http.exchanges(),
    inFlight: () => http.inFlight?.() ?? [],
  };
}

