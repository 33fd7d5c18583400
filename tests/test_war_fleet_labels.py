"""War Fleet's ship names on a phone's map (issue 35): larger than the hex numbers, drawn over them,
and short enough not to run into the next column's, keeping the number that tells sisters apart."""

from companion.app.rulesets.war_fleet.tokens import NAME, WIDEST, short_name
from companion.app.views.hexmap import LABEL


def test_a_name_is_larger_than_a_hex_number():
    assert NAME > LABEL


def test_a_long_name_keeps_its_number():
    assert short_name("Hertfordshire 1") == "Hertf. 1"
    assert short_name("Pelletier 10") == "Pell. 10"
    assert len({short_name(f"Hertfordshire {n}") for n in range(1, 7)}) == 6  # sisters stay apart
    assert all(len(short_name(f"Montpellier {n}")) <= int(WIDEST / (NAME * 0.58)) for n in range(1, 12))


def test_a_short_name_or_one_without_a_number_is_left_whole():
    assert short_name("Raven 10") == "Raven 10"
    assert short_name("Leviathan") == "Leviathan"
    assert short_name("Spion Kop") == "Spion Kop"  # the canvas's ellipsis cuts it if it must
