/**
 * Two CSL 1.0 styles written for this service, for the item types it cites (a report, a dataset, a web page):
 * MLA (9th edition conventions) and Chicago (author-date bibliography). citation-js ships APA itself; it renders
 * these through the same CSL processor.
 */

const ACCESS = `
  <macro name="access">
    <choose>
      <if variable="DOI">
        <text variable="DOI" prefix="https://doi.org/"/>
      </if>
      <else>
        <text variable="URL"/>
      </else>
    </choose>
  </macro>`;

const AUTHOR = `
  <macro name="author">
    <names variable="author">
      <name and="text" delimiter=", " delimiter-precedes-last="always" name-as-sort-order="first" sort-separator=", "/>
    </names>
  </macro>`;

const TITLE = `
  <macro name="title">
    <choose>
      <if type="webpage">
        <text variable="title" quotes="true"/>
      </if>
      <else>
        <text variable="title" font-style="italic"/>
      </else>
    </choose>
  </macro>`;

export const MLA_STYLE = `<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0" default-locale="en-US">
  <info>
    <title>MLA (Signal Service)</title>
    <id>signal-service-mla</id>
    <updated>2026-11-22T00:00:00+00:00</updated>
  </info>${AUTHOR}${TITLE}${ACCESS}
  <macro name="date">
    <date variable="issued">
      <date-part name="day" suffix=" "/>
      <date-part name="month" form="short" strip-periods="false" suffix=" "/>
      <date-part name="year"/>
    </date>
  </macro>
  <citation>
    <layout prefix="(" suffix=")">
      <text macro="author"/>
    </layout>
  </citation>
  <bibliography>
    <layout suffix=".">
      <group delimiter=". ">
        <text macro="author"/>
        <text macro="title"/>
        <group delimiter=", ">
          <choose>
            <if type="webpage">
              <text variable="container-title" font-style="italic"/>
            </if>
            <else>
              <text variable="version" prefix="Version "/>
              <text variable="publisher"/>
            </else>
          </choose>
          <text macro="date"/>
          <text macro="access"/>
        </group>
      </group>
    </layout>
  </bibliography>
</style>`;

export const CHICAGO_STYLE = `<?xml version="1.0" encoding="utf-8"?>
<style xmlns="http://purl.org/net/xbiblio/csl" class="in-text" version="1.0" default-locale="en-US">
  <info>
    <title>Chicago author-date (Signal Service)</title>
    <id>signal-service-chicago</id>
    <updated>2026-11-22T00:00:00+00:00</updated>
  </info>${AUTHOR}${TITLE}${ACCESS}
  <citation>
    <layout prefix="(" suffix=")">
      <group delimiter=" ">
        <text macro="author"/>
        <date variable="issued"><date-part name="year"/></date>
      </group>
    </layout>
  </citation>
  <bibliography>
    <layout suffix=".">
      <group delimiter=". ">
        <text macro="author"/>
        <date variable="issued"><date-part name="year"/></date>
        <text macro="title"/>
        <choose>
          <if type="webpage">
            <text variable="container-title"/>
            <date variable="issued">
              <date-part name="month" suffix=" "/>
              <date-part name="day" suffix=", "/>
              <date-part name="year"/>
            </date>
          </if>
          <else>
            <text variable="version" prefix="Version "/>
            <text variable="publisher"/>
          </else>
        </choose>
        <text macro="access"/>
      </group>
    </layout>
  </bibliography>
</style>`;
