"""The HTML report in a real headless browser (Playwright driving Debian's chromium)."""

from __future__ import annotations

import os
from pathlib import Path

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
    """Random and oracle on eight cases, every screen recorded, one case an infra skip."""
    root = tmp_path_factory.mktemp("report")
    suite = load_suite(str(write_suite(root, "browser", 2)))
    plan = FaultPlan(cases={"ContactsAddContact-1": ALWAYS}, at_call=0)
    for spec in ("random", "oracle"):
        # Screens for the oracle's episodes only: they are the long ones the test steps through.
        screens = -1 if spec == "oracle" else 0
        config = EvalConfig(num_envs=2, vectorization="sync", screens=screens, max_retries=0, fault_plan=plan, progress="off")
        run_suite(load_agent(spec), suite, root / spec, config, agent_spec=spec)
    _, _, path = write_comparison([root / "random", root / "oracle"], root)
    return path


def test_report_shows_episodes_and_steps_through_them(report: Path) -> None:
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(report.as_uri())
            rows = page.locator("[data-testid=episode-row]")
            assert rows.count() == 16
            assert page.locator("[data-testid=summary-row]").count() == 2
            assert "privileged" in page.locator("[data-testid=summary-row]").nth(1).inner_text()

            # An oracle episode has several steps and a recorded screen for each.
            page.select_option("[data-testid=filter-run]", "1")
            page.select_option("[data-testid=filter-outcome]", "success")
            assert rows.count() == 7
            rows.first.click()
            label = page.locator("[data-testid=step-label]")
            steps = int(label.inner_text().split("/")[1])
            assert label.inner_text() == f"step 0 / {steps}" and steps >= 2
            frame = page.locator("[data-testid=frame]")
            first_src = frame.get_attribute("src")
            assert page.evaluate("document.querySelector('[data-testid=frame]').naturalWidth") == 232  # the image loaded
            first_action = page.locator("[data-testid=next-action]").inner_text()
            page.click("[data-testid=next]")
            assert label.inner_text() == f"step 1 / {steps}"
            assert frame.get_attribute("src") != first_src
            assert page.locator("#actions li.current").get_attribute("data-step") == "1"
            assert first_action.startswith("next action: ")
            page.click("[data-testid=prev]")
            assert label.inner_text() == f"step 0 / {steps}"
            page.keyboard.press("ArrowRight")
            page.keyboard.press("ArrowRight")
            assert label.inner_text() == f"step 2 / {steps}"
            page.click("[data-testid=last]")
            assert label.inner_text() == f"step {steps} / {steps}"
            assert page.locator("[data-testid=next-action]").inner_text() == "episode over"
            page.click("[data-testid=next]")  # past the end: stays on the last step
            assert label.inner_text() == f"step {steps} / {steps}"

            # Filters: family and outcome narrow the list to matching episodes only.
            page.select_option("[data-testid=filter-run]", "")
            page.select_option("[data-testid=filter-outcome]", "")
            page.select_option("[data-testid=filter-family]", "contacts")
            assert rows.count() == 4
            assert set(rows.evaluate_all("rows => rows.map(r => r.dataset.family)")) == {"contacts"}
            page.select_option("[data-testid=filter-outcome]", "infra_skip")
            assert rows.count() == 2
            rows.first.click()
            assert "Infra faults" in page.locator("[data-testid=viewer]").inner_text()
            assert "showing 2 of 16" in page.locator("[data-testid=count]").inner_text()
            assert errors == []
        finally:
            browser.close()
