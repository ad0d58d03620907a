/**
 * The OpenOOH Venue Taxonomy 1.1 (https://github.com/openooh/venue-taxonomy, specification-1.1.md
 * and its JSON form; Apache-2.0), as data: every venue type with its immutable enumeration id, its
 * name and its (deprecated, kept for reference) string value. Three tiers: parents (1–11), children
 * (parent × 100 + n) and grandchildren (child × 100 + n). The taxonomy is what SSPs and DSPs target
 * (OpenRTB 2.6 `dooh.venuetype` / AdCOM "DOOH Venue Taxonomies" value 5 = OpenOOH 1.1).
 */

export const OPENOOH_TAXONOMY_VERSION = '1.1';
/** AdCOM 1.0 list "DOOH Venue Taxonomies": 5 = OpenOOH Venue Taxonomy 1.1 (OpenRTB 2.6 `dooh.venuetypetax`). */
export const OPENOOH_ADCOM_TAXONOMY_ID = 5;

/** [enumeration id, name, string value, children?] */
type Node = readonly [id: number, name: string, slug: string, children?: readonly Node[]];

const TREE: readonly Node[] = [
  [
    1,
    'Transit',
    'transit',
    [
      [
        101,
        'Airports',
        'transit.airports',
        [
          [10101, 'Arrival Hall', 'transit.airports.arrivals_hall'],
          [10102, 'Baggage Claim', 'transit.airports.baggage_claim'],
          [10103, 'Departures Hall', 'transit.airports.departures_hall'],
          [10104, 'Food Court', 'transit.airports.food_court'],
          [10105, 'Gates', 'transit.airports.gates'],
          [10106, 'Lounges', 'transit.airports.lounges'],
          [10107, 'Shopping Area', 'transit.airports.shopping_area'],
        ],
      ],
      [
        102,
        'Buses',
        'transit.buses',
        [
          [10201, 'Bus (Inside)', 'transit.buses.bus'],
          [10202, 'Terminal', 'transit.buses.terminal'],
          [10203, 'Bus (Outside)', 'transit.buses.bus_outside'],
        ],
      ],
      [103, 'Taxi & Rideshare TV', 'transit.taxi_rideshare_tv'],
      [104, 'Taxi & Rideshare Top', 'transit.taxi_rideshare_top'],
      [
        105,
        'Subway',
        'transit.subway',
        [
          [10501, 'Subway Train', 'transit.subway.train'],
          [10502, 'Platform', 'transit.subway.platform'],
        ],
      ],
      [
        106,
        'Train Stations',
        'transit.train_stations',
        [
          [10601, 'Train', 'transit.train_stations.train'],
          [10602, 'Platform', 'transit.train_stations.platform'],
        ],
      ],
      [107, 'Ferry', 'transit.ferry'],
    ],
  ],
  [
    2,
    'Retail',
    'retail',
    [
      [
        201,
        'Fueling Stations',
        'retail.gas_stations',
        [
          [20101, 'Fuel Dispenser', 'retail.gas_stations.pump'],
          [20102, 'Shop', 'retail.gas_stations.shop'],
        ],
      ],
      [202, 'Convenience Stores', 'retail.convenience_store'],
      [
        203,
        'Grocery',
        'retail.grocery',
        [
          [20301, 'Shop Entrance', 'retail.grocery.shop_entrance'],
          [20302, 'Check Out', 'retail.grocery.check_out'],
          [20303, 'Aisles', 'retail.grocery.aisles'],
        ],
      ],
      [204, 'Liquor Stores', 'retail.liquor_stores'],
      [
        205,
        'Mall',
        'retail.malls',
        [
          [20501, 'Concourse', 'retail.malls.concourse'],
          [20502, 'Food Court', 'retail.malls.food_court'],
          [20503, 'Spectacular', 'retail.malls.spectacular'],
        ],
      ],
      [206, 'Cannabis Dispensaries', 'retail.dispensaries'],
      [207, 'Pharmacies', 'retail.pharmacies'],
      [208, 'Parking Garages', 'retail.parking_garages'],
    ],
  ],
  [
    3,
    'Outdoor',
    'outdoor',
    [
      [
        301,
        'Billboards',
        'outdoor.billboards',
        [
          [30101, 'Roadside', 'outdoor.billboards.roadside'],
          [30102, 'Highway', 'outdoor.billboards.highway'],
          [30103, 'Spectacular', 'outdoor.billboards.spectacular'],
        ],
      ],
      [302, 'Urban Panels', 'outdoor.urban_panels'],
      [303, 'Bus Shelters', 'outdoor.bus_shelters'],
    ],
  ],
  [
    4,
    'Health & Beauty',
    'health_beauty',
    [
      [
        401,
        'Gyms',
        'health_beauty.gyms',
        [
          [40101, 'Lobby', 'health_beauty.gyms.lobby'],
          [40102, 'Fitness Equipment', 'health_beauty.gyms.equipment'],
        ],
      ],
      [
        402,
        'Salons',
        'health_beauty.salons',
        [
          [40201, 'Unisex Salon', 'health_beauty.salons.unisex'],
          [40202, "Men's Salon", 'health_beauty.salons.mens'],
          [40203, "Women's Salon", 'health_beauty.salons.womens'],
        ],
      ],
      [403, 'Spas', 'health_beauty.spas'],
    ],
  ],
  [
    5,
    'Point of Care',
    'point_care',
    [
      [501, "Doctor's Offices", 'point_care.doctor_offices'],
      [502, 'Veterinary Offices', 'point_care.veterinary_offices'],
    ],
  ],
  [
    6,
    'Education',
    'education',
    [
      [601, 'Schools', 'education.schools'],
      [
        602,
        'Colleges and Universities',
        'education.colleges',
        [
          [60201, 'Residences', 'education.colleges.residences'],
          [60202, 'Common Areas', 'education.colleges.common'],
          [60203, 'Athletic Facilities', 'education.colleges.athletics'],
        ],
      ],
    ],
  ],
  [
    7,
    'Office Buildings',
    'office_buildings',
    [
      [
        701,
        'Office Buildings',
        'office_buildings.office_buildings',
        [
          [70101, 'Elevator', 'office_buildings.office_buildings.elevator'],
          [70102, 'Lobby', 'office_buildings.office_buildings.lobby'],
        ],
      ],
    ],
  ],
  [
    8,
    'Leisure',
    'entertainment',
    [
      [
        801,
        'Recreational Locations',
        'entertainment.recreational',
        [
          [80101, 'Theme Parks', 'entertainment.recreational.theme_parks'],
          [80102, 'Museums and Galleries', 'entertainment.recreational.museums_galleries'],
          [80103, 'Concert Venues', 'entertainment.recreational.concert_venues'],
        ],
      ],
      [
        802,
        'Movie Theaters',
        'entertainment.movie_theaters',
        [
          [80201, 'Lobby', 'entertainment.movie_theaters.lobby'],
          [80202, 'Food Court', 'entertainment.movie_theaters.food_court'],
        ],
      ],
      [
        803,
        'Sports Entertainment',
        'entertainment.sports',
        [
          [80301, 'Sport Arena', 'entertainment.sports.arena'],
          [80302, 'Club House', 'entertainment.sports.club_house'],
        ],
      ],
      [804, 'Bars', 'entertainment.bars'],
      [805, 'Casual Dining', 'entertainment.casual_dining'],
      [806, 'QSR', 'entertainment.qsr'],
      [
        807,
        'Hotels',
        'entertainment.hotels',
        [
          [80701, 'Lobby', 'entertainment.hotels.lobby'],
          [80702, 'Elevator', 'entertainment.hotels.elevator'],
          [80703, 'Room', 'entertainment.hotels.room'],
        ],
      ],
      [808, 'Golf Carts', 'entertainment.golf_cart'],
      [809, 'Night Clubs', 'entertainment.night_club'],
      [810, 'High-End Dining', 'entertainment.high_end_dining'],
    ],
  ],
  [
    9,
    'Government',
    'government',
    [
      [901, 'DMVs', 'government.dmv'],
      [902, 'Military Bases', 'government.military_bases'],
      [903, 'Post Offices', 'government.postal'],
    ],
  ],
  [10, 'Financial', 'financial', [[1001, 'Banks', 'financial.banks']]],
  [
    11,
    'Residential',
    'residential',
    [
      [
        1101,
        'Apartment Buildings and Condominiums',
        'residential.apartment',
        [
          [110101, 'Lobby', 'residential.apartment_buildings.lobby'],
          [110102, 'Elevator', 'residential.apartment_buildings.elevator'],
        ],
      ],
    ],
  ],
];

export type VenueTier = 'parent' | 'child' | 'grandchild';

export interface VenueType {
  id: number;
  name: string;
  /** The taxonomy's string value (deprecated on the wire since 1.1; shown for reference). */
  slug: string;
  tier: VenueTier;
  parentId: number | null;
  /** The ids from the parent down to this one (OpenOOH `venuetypelist`). */
  idPath: readonly number[];
  /** The names from the parent down, joined: `Retail / Grocery / Check Out`. */
  fullName: string;
  /** Whether the taxonomy has more precise types under this one. */
  hasChildren: boolean;
}

const TIERS: readonly VenueTier[] = ['parent', 'child', 'grandchild'];

function flatten(nodes: readonly Node[], parent: VenueType | null, out: VenueType[]): VenueType[] {
  for (const [id, name, slug, children] of nodes) {
    const v: VenueType = {
      id,
      name,
      slug,
      tier: TIERS[parent ? parent.idPath.length : 0]!,
      parentId: parent?.id ?? null,
      idPath: [...(parent?.idPath ?? []), id],
      fullName: parent ? `${parent.fullName} / ${name}` : name,
      hasChildren: (children?.length ?? 0) > 0,
    };
    out.push(v);
    if (children) flatten(children, v, out);
  }
  return out;
}

/** Every venue type in taxonomy order (each parent, then its children, each child then its grandchildren). */
export const VENUE_TYPES: readonly VenueType[] = Object.freeze(flatten(TREE, null, []));

const BY_ID: ReadonlyMap<number, VenueType> = new Map(VENUE_TYPES.map((v) => [v.id, v]));

/** The venue type with this enumeration id, or undefined when the taxonomy has none. */
export function venueTypeById(id: number): VenueType | undefined {
  return BY_ID.get(id);
}

/** OpenOOH: no screen is assigned solely to a parent type, unless that parent has no children. */
export function isAssignable(v: VenueType): boolean {
  return !(v.tier === 'parent' && v.hasChildren);
}

/** The direct children of a venue type (empty for a leaf or an unknown id). */
export function childrenOf(id: number): VenueType[] {
  return VENUE_TYPES.filter((v) => v.parentId === id);
}
