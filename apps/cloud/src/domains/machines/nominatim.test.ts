import { describe, expect, it } from 'vitest';
import { NominatimGeocoder, parseNominatimAnswer } from './nominatim.ts';

const place = {
  place_id: 1234,
  licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
  osm_type: 'way',
  osm_id: 34633854,
  lat: '40.7484284',
  lon: '-73.9856546',
  category: 'building',
  type: 'yes',
  place_rank: 30,
  importance: 0.62,
  addresstype: 'building',
  name: 'Empire State Building',
  display_name: 'Empire State Building, 350, 5th Avenue, Manhattan, New York, 10118, United States',
  boundingbox: ['40.7479', '40.7489', '-73.9865', '-73.9848'],
};

describe('Nominatim jsonv2 answers', () => {
  it('a match resolves with osm:<N|W|R><id> and the display name', () => {
    expect(parseNominatimAnswer([place])).toEqual({
      status: 'resolved',
      lat: 40.7484284,
      lng: -73.9856546,
      placeId: 'osm:W34633854',
      formatted: place.display_name,
    });
    expect(parseNominatimAnswer([{ ...place, osm_type: 'node' }])).toMatchObject({ placeId: 'osm:N34633854' });
    expect(parseNominatimAnswer([{ ...place, osm_type: 'relation' }])).toMatchObject({ placeId: 'osm:R34633854' });
  });
  it('an unknown osm_type still resolves, without a placeId', () => {
    expect(parseNominatimAnswer([{ ...place, osm_type: 'area' }])).toMatchObject({ status: 'resolved', placeId: null });
  });
  it('an empty list is not_found', () => {
    expect(parseNominatimAnswer([])).toEqual({ status: 'not_found' });
  });
  it('anything else is a provider_error, never a throw', () => {
    for (const bad of [
      null,
      {},
      'x',
      [{}],
      [{ ...place, lat: 'north' }],
      [{ ...place, lat: '95' }],
      [{ ...place, lat: '0', lon: '0' }],
      [{ ...place, display_name: 7 }],
    ]) {
      expect(parseNominatimAnswer(bad).status).toBe('provider_error');
    }
  });
  it('asks /search with the documented parameters, whatever the base URL ends with', () => {
    const g = new NominatimGeocoder({ url: 'https://geo.example/nominatim/', timeoutMs: 1000, userAgent: 'ua' });
    const u = new URL(g.searchUrl('350 5th Ave & 34th, NY'));
    expect(u.pathname).toBe('/nominatim/search');
    expect(Object.fromEntries(u.searchParams)).toEqual({ q: '350 5th Ave & 34th, NY', format: 'jsonv2', limit: '1', addressdetails: '0' });
  });
});
