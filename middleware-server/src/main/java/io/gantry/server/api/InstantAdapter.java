package io.gantry.server.api;

import jakarta.xml.bind.annotation.adapters.XmlAdapter;
import java.time.Instant;
import java.time.OffsetDateTime;

/** Maps {@link Instant} to xs:dateTime in UTC; accepts any offset when reading. */
public final class InstantAdapter extends XmlAdapter<String, Instant> {
  @Override
  public Instant unmarshal(String text) {
    return text == null ? null : OffsetDateTime.parse(text.trim()).toInstant();
  }

  @Override
  public String marshal(Instant instant) {
    return instant == null ? null : instant.toString();
  }
}
