"""The HTML report in a real headless browser (Playwright driving Debian's chromium)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from evalhelpers import CHROMIUM, CHROMIUM_ARGS, write_suite

from cerebellum_gym.agents import load_agent
from cerebellum_gym.evaluation.faults import ALWAYS, FaultPlan
from cerebellum_gym.evaluation.outputs import write_comparison
from cerebellum_gym.evaluation.runner import EvalConfig, run_suite
from cerebellum_gym.evaluation.suites import load_suite

pytestmark = pytest.mark.slow

sync_api = pytest.importorskip("playwright.sync_api")
if not os.path.exists(CHROMIUM):
    pytest.skip(f"no chromium at {CHROMIUM} (scripts/dev.sh test installs Debian's)", allow_module_level=True)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Random and oracle on eight cases with the default screen policy (a small run: every
    episode gets its screens), one case an infra skip."""
    root = tmp_path_factory.mktemp("report")
    suite = load_suite(str(write_suite(root, "browser", 2)))
    plan = FaultPlan(cases={"ContactsAddContact-1": ALWAYS}, at_call=0)
    for spec in ("random", "oracle"):
        config = EvalConfig(num_envs=2, vectorization="sync", screens="auto", max_retries=0, fault_plan=plan, progress="off")
        run_suite(load_agent(spec), suite, root / spec, config, agent_spec=spec)
    _, _, path = write_comparison([root / "random", root / "oracle"], root)
    return path


def _width(page: Any, selector: str) -> float:
    return float(page.evaluate(f"document.querySelector('{selector}').getBoundingClientRect().width"))


def test_report_shows_episodes_and_steps_through_them(report: Path) -> None:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 1000})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(report.as_uri())
            rows = page.locator("[data-testid=episode-row]")
            assert rows.count() == 16
            assert page.locator("[data-testid=summary-row]").count() == 2
            assert page.locator("[data-testid=summary-row]").nth(1).inner_text().count("privileged") == 1
            options = page.locator("[data-testid=filter-run] option").all_inner_texts()
            assert options == ["all", "random", "oracle (privileged)"]  # the label once, not "(privileged) (privileged)"

            # The chart is shown at its own pixel size (drawn to be legible at that size).
            chart = page.locator("[data-testid=chart]")
            natural = page.evaluate("document.querySelector('[data-testid=chart]').naturalWidth")
            assert natural > 0 and chart.evaluate("img => img.getBoundingClientRect().width") == natural

            # An oracle episode has several steps, a recorded screen and tree for each.
            page.select_option("[data-testid=filter-run]", "1")
            page.select_option("[data-testid=filter-outcome]", "success")
            assert rows.count() == 7
            rows.first.click()
            label = page.locator("[data-testid=step-label]")
            steps = int(label.inner_text().split("/")[1])
            assert label.inner_text() == f"step 0 / {steps}" and steps >= 2
            frame = page.locator("[data-testid=frame]")
            first_src = frame.get_attribute("src")
            # Frames have the width of the agent's screenshots and are shown at that size; zoom doubles it.
            page.wait_for_function("document.querySelector('[data-testid=frame]').naturalWidth > 0")
            assert page.evaluate("document.querySelector('[data-testid=frame]').naturalWidth") == 464
            page.wait_for_function("document.querySelector('[data-testid=frame]').getBoundingClientRect().width === 464")
            page.click("[data-testid=zoom-2]")
            page.wait_for_function("document.querySelector('[data-testid=frame]').getBoundingClientRect().width === 928")
            page.click("[data-testid=zoom-fit]")
            assert page.evaluate("document.querySelector('[data-testid=frame]').getBoundingClientRect().height") <= 0.83 * 1000
            page.click("[data-testid=frame]")  # a click on the frame zooms in
            page.wait_for_function("document.querySelector('[data-testid=frame]').getBoundingClientRect().width === 928")
            page.click("[data-testid=zoom-1]")

            # Beside the frame: the action taken on this screen and the compact tree the agent read,
            # in which that action's label is visible.
            for k in range(steps):
                action = page.locator("[data-testid=next-action]").inner_text()
                assert action.startswith(f"action {k + 1}: ")
                code = action.split(": ", 1)[1]
                tree = page.locator("[data-testid=tree]").inner_text()
                assert tree.strip()
                if code.startswith(("T ", "P ")):
                    assert f"[{code[2:4]}]" in tree, (k, code, tree)
                page.click("[data-testid=next]")
            assert label.inner_text() == f"step {steps} / {steps}"
            assert page.locator("[data-testid=next-action]").inner_text() == "episode over"
            assert frame.get_attribute("src") != first_src
            page.click("[data-testid=next]")  # past the end: stays on the last step
            assert label.inner_text() == f"step {steps} / {steps}"
            page.click("[data-testid=first]")
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowRight")
            assert label.inner_text() == f"step 2 / {steps}"
            assert page.locator("#actions li.current").get_attribute("data-step") == "2"
            page.click("[data-testid=prev]")
            assert label.inner_text() == f"step 1 / {steps}"

            # The random agent's failures have their screens too (the default keeps every unsuccessful episode).
            page.select_option("[data-testid=filter-run]", "0")
            page.select_option("[data-testid=filter-outcome]", "failure")
            assert rows.count() >= 1
            rows.first.click()
            assert page.locator("[data-testid=frame]").count() == 1 and page.locator("[data-testid=tree]").count() == 1

            # Filters: family and outcome narrow the list to matching episodes only.
            page.select_option("[data-testid=filter-run]", "")
            page.select_option("[data-testid=filter-outcome]", "")
            page.select_option("[data-testid=filter-family]", "contacts")
            assert rows.count() == 4
            assert set(rows.evaluate_all("rows => rows.map(r => r.dataset.family)")) == {"contacts"}
            page.select_option("[data-testid=filter-outcome]", "infra_skip")
            assert rows.count() == 2
            rows.first.click()
            viewer = page.locator("[data-testid=viewer]").inner_text()
            assert "Infra faults" in viewer and "no screens recorded" in viewer
            assert "showing 2 of 16" in page.locator("[data-testid=count]").inner_text()
            assert errors == []
        finally:
            browser.close()
