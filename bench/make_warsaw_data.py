"""Writes the default Warsaw data set (a reconstruction, see docs/warsaw.md) to
python/tilecraft/data/warsaw/{cards,milestones}.json. The JSON files are the data; this script
only records how they were authored. Run: python3 bench/make_warsaw_data.py"""
import json
import os

import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
from tilecraft.games.warsaw import quadrants_from_letters as quads  # noqa: E402

OUT = os.path.join(HERE, "..", "python", "tilecraft", "data", "warsaw")


# (price, "NW NE SE SW", name); cultural (U) and industrial (I) quadrants may carry a value.
ERAS = {
    1: [(1, "R R R R", "Tenement row"), (1, "R R R R", "Burgher houses"), (1, "R R R R", "Wooden cottages"),
        (1, "P P P P", "Saxon Garden"), (1, "P P P P", "Krasiński Garden"), (2, "C C C C", "Old Town Market"),
        (2, "C C C C", "Merchant stalls"), (2, "I1 I I I", "Brewery"), (2, "I1 I I I", "Tannery"),
        (2, "U1 U U U", "St. John's Chapel"), (1, "T T T T", "Vistula ferry"), (1, "R R P P", "Garden houses"),
        (2, "R R C C", "Shops and flats")],
    2: [(2, "R R R R", "Townhouses"), (1, "P P P P", "Ujazdów Park"),
        (2, "C C C C", "Trade hall"), (3, "C C C C", "Cloth hall"), (3, "I1 I1 I I", "Mint"),
        (2, "I1 I I I", "Foundry"), (3, "U1 U1 U U", "Collegium Nobilium"), (2, "U1 U U U", "Library"),
        (1, "T T T T", "Stage coach yard"), (2, "R R P P", "Villa gardens"), (2, "R R C C", "Arcades"),
        (2, "R R T T", "Post road houses")],
    3: [(2, "R R P P", "Park housing"), (3, "R R C C", "Boulevard shops"), (3, "R R I1 I", "Workers' housing"),
        (3, "R R U1 U", "Academy quarter"), (2, "P P C C", "Market garden"), (3, "C C I1 I", "Warehouses"),
        (4, "I2 I I I", "Steelworks"), (4, "U2 U U U", "Opera house"), (2, "R R R P", "Courtyard houses"),
        (3, "R R R C", "Corner shop"), (2, "T T P P", "Railway park"), (3, "C C C T", "Station bazaar"),
        (2, "P P P R", "Park lodge")],
    4: [(3, "R R P C", "Mixed block"), (3, "R R C I1", "Factory district"), (3, "R P U1 R", "Theatre lane"),
        (3, "C C R T", "Tram market"), (4, "I1 I1 R T", "Rail works"), (4, "U1 U1 P R", "Museum park"),
        (3, "P P R T", "Garden suburb"), (3, "R R R U1", "Parish"), (4, "C C I1 I1", "Industrial market"),
        (5, "U2 U1 U U", "Philharmonic"), (5, "I2 I1 I I", "Power station"),
        (3, "P R P R", "Green estate"), (3, "T R T C", "Tram crossing")],
    5: [(4, "R C P U1", "City centre"), (4, "R I2 C R", "Wola district"), (5, "U2 R P R", "Gallery quarter"),
        (4, "C R T R", "Metro shops"), (5, "I2 T C R", "Harbour works"), (4, "P R U1 C", "Cultural park"),
        (5, "R R U2 P", "Arts estate"), (4, "C C R U1", "Cinema street"), (4, "I1 R I1 R", "Factory estate"),
        (4, "T P R C", "Suburban station"), (5, "U1 C U1 R", "Theatre district"), (3, "R P R P", "Garden city"),
        (5, "I3 I I C", "Car factory")],
    6: [(6, "R U2 C P", "New centre"), (5, "R C I2 R", "Tech park"), (6, "U3 R R P", "Concert hall"),
        (5, "C R C T", "Shopping arcade"), (6, "P R U2 R", "Riverside park"), (5, "I2 C R C", "Business district"),
        (5, "R T U1 C", "Metro centre"), (6, "U2 U2 R R", "Arts campus"), (5, "P C R P", "Boulevard park"),
        (6, "R R C U2", "Culture street"), (6, "I3 R T R", "Logistics hub"), (5, "C U1 P R", "Market square"),
        (5, "R P R T", "Commuter estate")],
}
PUBLIC = {
    1: [(3, {"effect": "sigismund"}, "Sigismund's Column"),
        (2, {"effect": "flat", "amount": 1, "resource": "coins"}, "Barbican"),
        (4, {"effect": "per_area", "type": "cultural", "amount": 1, "resource": "vp"}, "Royal Castle")],
    2: [(3, {"effect": "arsenal"}, "Arsenal"),
        (4, {"effect": "per_area", "type": "park", "amount": 1, "resource": "vp"}, "Łazienki Palace"),
        (3, {"effect": "adjacent", "type": "residential", "amount": 1, "resource": "vp"}, "University of Warsaw"),
        (4, {"effect": "per_area", "type": "residential", "amount": 1, "resource": "coins"}, "Wilanów Palace")],
    3: [(4, {"effect": "jablonowski"}, "Jabłonowski Palace"),
        (5, {"effect": "prudential"}, "Prudential"),
        (3, {"effect": "per_area", "type": "commercial", "amount": 1, "resource": "coins"}, "Hala Mirowska")],
    4: [(4, {"effect": "adjacent", "type": "cultural", "amount": 2, "resource": "vp"}, "National Museum"),
        (4, {"effect": "flat", "amount": 2, "resource": "vp"}, "Grand Theatre"),
        (3, {"effect": "adjacent", "type": "industrial", "amount": 1, "resource": "coins"}, "Warsaw Polytechnic")],
    5: [(5, {"effect": "per_area", "type": "transport", "amount": 2, "resource": "vp"}, "Central Station"),
        (4, {"effect": "exchange", "amount": 2, "limit": 3, "resource": "vp"}, "Warsaw Stock Exchange"),
        (5, {"effect": "per_area", "type": "cultural", "amount": 2, "resource": "coins"}, "Zachęta Gallery")],
    6: [(6, {"effect": "per_public", "amount": 2, "resource": "vp"}, "Palace of Culture and Science"),
        (5, {"effect": "flat", "amount": 3, "resource": "vp"}, "Warsaw Uprising Monument"),
        (5, {"effect": "adjacent", "type": "park", "amount": 2, "resource": "vp"}, "Copernicus Science Centre")],
}
ROMAN = ["", "I", "II", "III", "IV", "V", "VI"]


def main():
    cards = []
    for era in range(1, 7):
        k = 0
        for price, spec, name in ERAS[era]:
            k += 1
            cards.append({"id": f"{ROMAN[era]}-{k:02d}", "name": name, "era": era, "price": price,
                          "quadrants": quads(spec)})
        for price, effect, name in PUBLIC[era]:
            k += 1
            cards.append({"id": f"{ROMAN[era]}-{k:02d}", "name": name, "era": era, "price": price,
                          "whole_card": dict({"kind": "public"}, **effect)})
        assert k == 16, (era, k)
    data = {
        "format": "tilecraft.warsaw.cards",
        "version": 1,
        "reconstruction": "No public per-card list exists; this set is authored for tilecraft (docs/warsaw.md). "
                          "Replace it with a transcription of the published cards when one is available.",
        "start_card": {"name": "Starting card", "quadrants": quads("P R R P")},
        "park_table": [0, 1, 2, 3, 5, 7, 10, 13, 16],
        "park_extra_per_area": 3,
        "cards": cards,
    }
    flat = {"effect": "flat", "amount": 1, "resource": "vp"}  # WA-AMB-4 placeholder: +1 VP per income phase
    miles = {
        "format": "tilecraft.warsaw.milestones",
        "version": 1,
        "reconstruction": "WA-AMB-4 placeholder: the five example conditions of the source split over the faces, "
                          "every effect +1 VP per income phase.",
        "milestones": [
            {"slot": 1, "sides": [{"name": "Most residential areas", "condition": "most_areas_of", "type": "residential", "effect": flat},
                                  {"name": "Most park areas", "condition": "most_areas_of", "type": "park", "effect": flat}]},
            {"slot": 2, "sides": [{"name": "Most areas", "condition": "most_areas", "effect": flat},
                                  {"name": "Most commercial areas", "condition": "most_areas_of", "type": "commercial", "effect": flat}]},
            {"slot": 3, "sides": [{"name": "Most public buildings", "condition": "most_public_buildings", "effect": flat},
                                  {"name": "Fewest areas", "condition": "fewest_areas", "effect": flat}]},
            {"slot": 4, "sides": [{"name": "Most overbuilt positions", "condition": "most_overbuilt_positions", "effect": flat},
                                  {"name": "Most cultural areas", "condition": "most_areas_of", "type": "cultural", "effect": flat}]},
            {"slot": 5, "sides": [{"name": "Most areas", "condition": "most_areas", "effect": flat},
                                  {"name": "Most industrial areas", "condition": "most_areas_of", "type": "industrial", "effect": flat}]},
        ],
    }
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "cards.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")
    with open(os.path.join(OUT, "milestones.json"), "w", encoding="utf-8") as f:
        json.dump(miles, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
