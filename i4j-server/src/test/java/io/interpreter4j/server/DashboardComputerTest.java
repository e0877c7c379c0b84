package io.interpreter4j.server;

import static io.interpreter4j.server.DashboardBrowserTest.testId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.interpreter4j.core.event.Event;
import io.interpreter4j.core.event.EventCodec;
import io.interpreter4j.core.event.EventPayload;
import io.interpreter4j.core.event.StreamName;
import io.interpreter4j.core.event.TurnStatus;
import io.interpreter4j.core.image.ImageSource;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/** The dashboard shows what a block did on the computer (computer_action events), each before its screenshot. */
class DashboardComputerTest extends DashboardPage {

  @Test
  void eachActionIsALineOfItsBlocksOutputBeforeTheScreenshotItTook() throws Exception {
    String id = "20261203-140000-c0c0c0";
    Path dir = Files.createDirectories(server.dataDir.resolve("sessions").resolve(id));
    Path png = Files.createDirectories(dir.resolve("outputs")).resolve("block-1-1.png");
    ImageIO.write(new BufferedImage(1280, 720, BufferedImage.TYPE_INT_RGB), "png", png.toFile());
    List<EventPayload> payloads = List.of(
        new EventPayload.SessionStarted("replay:x", "/tmp"),
        new EventPayload.UserMessage("Fill in the form"),
        new EventPayload.CodeBlockEvent(1, "python", "computer.display.view()\ncomputer.mouse.click(1280, 10)", false),
        new EventPayload.ExecStarted(1, "python"),
        new EventPayload.ComputerAction(1, "display.view", null, null, null, null, null, true, "screenshot 1280x720"),
        new EventPayload.Image(1, "image/png", png.toString(), 1280, 720, ImageSource.SCREENSHOT),
        new EventPayload.ComputerAction(1, "keyboard.write", null, null, "Ada Lovelace", null, null, true,
            "typed 12 characters"),
        new EventPayload.ComputerAction(1, "mouse.click", 1280, 10, null, null, null, false,
            "(1280, 10) is off the screen"),
        new EventPayload.Output(1, StreamName.STDERR, "ComputerError: (1280, 10) is off the screen\n"),
        new EventPayload.ExecFinished(1, 1, false, false, 900, false, null),
        new EventPayload.TurnFinished(TurnStatus.DONE, 1, null));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < payloads.size(); i++) {
      lines.append(EventCodec.toJson(new Event(id, i + 1, Instant.parse("2026-12-03T14:00:00Z").plusSeconds(i),
          payloads.get(i)))).append('\n');
    }
    Files.writeString(dir.resolve("events.jsonl"), lines);
    assertEquals(1, server.handle.hub().restore(server.dataDir, 100));

    browser.login(server);
    browser.driver.get(server.base() + "/#/session/" + id);
    browser.waitFor("block 1's screenshot", testId("block-image"));
    List<WebElement> actions = browser.driver.findElements(testId("computer-action"));
    assertEquals(List.of("display.view", "keyboard.write", "mouse.click"),
        actions.stream().map(a -> a.getAttribute("data-action")).toList());
    assertTrue(actions.get(1).getText().contains("\"Ada Lovelace\""), actions.get(1).getText());
    assertTrue(actions.get(2).getText().contains("mouse.click (1280, 10)")
        && actions.get(2).getText().contains("off the screen"), actions.get(2).getText());
    assertTrue(actions.get(2).getAttribute("class").contains("out-action-failed"));
    Object order = browser.js("const o = document.querySelector(\"[data-testid='block-output']\");"
        + "return [...o.children].map(c => c.dataset.testid || c.tagName.toLowerCase()).join(',')");
    assertTrue(String.valueOf(order).startsWith("computer-action,figure,computer-action,computer-action"),
        String.valueOf(order));
    WebElement image = browser.driver.findElement(testId("block-image"));
    assertTrue(image.getAttribute("alt").contains("screenshot"), image.getAttribute("alt"));
  }
}
