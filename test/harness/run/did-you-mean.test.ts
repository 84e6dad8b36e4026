/** "Did you mean …?": a mistyped name answered with the known names closest to it, and nothing when none is close. */
import { describe, expect, it } from 'vitest';
import { closestNames, didYouMean, editDistance } from '../../../harness/run/did-you-mean.js';

const FIELDS = ['authUrl', 'baseUrl', 'clientId', 'clientSecret', 'apiKey', 'redirectUri', 'controlUrl', 'controlToken', 'fixtures', 'capture', 'statusCheck', 'tokenCache'];

describe('edit distance', () => {
  it.each([
    ['statusChek', 'statusCheck', 1],
    ['clinetId', 'clientId', 1], // two neighbours swapped: one edit
    ['abc', 'abc', 0],
    ['', 'abc', 3],
  ])('%s → %s: %i', (a, b, d) => expect(editDistance(a, b)).toBe(d));
});

describe('closest names', () => {
  it.each([
    ['controlURL', ['controlUrl']],
    ['clientID', ['clientId']],
    ['statusChek', ['statusCheck']],
    ['redirectURL', ['redirectUri']],
    ['base_url', ['baseUrl']],
    ['fixture', ['fixtures']],
  ])('%s → %j', (given, names) => expect(closestNames(given, FIELDS)).toEqual(names));

  it.each(['notes', 'description', 'token'])('%s is close to no field: no suggestion', (given) => {
    expect(closestNames(given, FIELDS)).toEqual([]);
    expect(didYouMean(given, FIELDS)).toBe('');
  });

  it('several equally close names are all offered, best first', () => {
    expect(didYouMean('TOKEN-CC-X', ['TOKEN-CC-A', 'TOKEN-CC-B', 'OAUTH-STATE-ECHO'])).toBe(': did you mean TOKEN-CC-A or TOKEN-CC-B?');
  });
});
